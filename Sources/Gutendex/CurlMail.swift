internal import CCurl
import Foundation

/// Mail through the user's own SMTP server with libcurl's SMTP (`send --to mail:`):
/// `smtps://` is TLS from the first byte; `smtp://` must switch to TLS with STARTTLS (a server
/// that does not offer it is refused, so a password never crosses the network in the clear),
/// except on a loopback address, where STARTTLS is used when offered. The login comes from the
/// URL or from the user's own 0600 `~/.netrc`.
public enum CurlMail {
  /// Why a message was not sent: one line, without the password.
  public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// libcurl could not be loaded (the line names its package).
    case unavailable(String)
    /// The server refused the login (535 and the like).
    case loginRefused(server: String, code: Int)
    /// The server refused the recipient (RCPT TO: 550, 553 ...).
    case recipientRefused(server: String, recipient: String, code: Int)
    /// The message is larger than the server takes (552, or the size it announced).
    case tooLarge(server: String, bytes: Int)
    /// The server offers no STARTTLS on a `smtp://` URL.
    case noTLS(server: String)
    /// The server could not be reached, timed out, or broke the exchange.
    case network(server: String, reason: String)

    /// The line printed after `error:`.
    public var description: String {
      switch self {
      case .unavailable(let reason): reason
      case .loginRefused(let server, let code):
        "\(server) refused the login (SMTP \(code)); check the user and password in "
          + "GUTENBERG_SMTP_URL or ~/.netrc"
      case .recipientRefused(let server, let recipient, let code):
        "\(server) refused the recipient \(recipient) (SMTP \(code))"
      case .tooLarge(let server, let bytes):
        "\(server) refused the message as too large (\(bytes) bytes with the attachment)"
      case .noTLS(let server):
        "\(server) offers no STARTTLS, and the login is not sent in the clear (smtps:// uses "
          + "TLS from the start)"
      case .network(let server, let reason): "cannot send through \(server): \(reason)"
      }
    }
  }

  /// Sends `message` (a whole RFC 5322 message, CRLF line ends) from `from` to `recipient`
  /// through `server`, waiting at most `timeout` for each step; runs on a thread of its own.
  public static func send(
    _ message: Data, from: String, to recipient: String, server: URL, timeout: Duration,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(Failure) {
    if let failure = CurlEngine.loadFailure { throw .unavailable(failure) }
    let settings = CurlSettings(environment: environment)
    let result: Result<Void, Failure> = await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(
          returning: perform(
            message, from: from, to: recipient, server: server, timeout: timeout,
            settings: settings))
      }
      thread.name = "gutenberg.smtp"
      thread.start()
    }
    try result.get()
  }

  private static func perform(
    _ message: Data, from: String, to recipient: String, server: URL, timeout: Duration,
    settings: CurlSettings
  ) -> Result<Void, Failure> {
    let shown = server.redacted
    gb_curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    guard let easy = gb_curl_easy_init() else {
      return .failure(.network(server: shown, reason: "libcurl could not make a handle"))
    }
    let handle = CurlHandle(easy: easy)
    defer { handle.release() }
    let recipients = gb_curl_slist_append(nil, "<\(recipient)>")
    defer { if let recipients { gb_curl_slist_free_all(recipients) } }
    let upload = MailUpload(message)
    let context = Unmanaged.passUnretained(upload).toOpaque()
    let loopback = RedirectPolicy.isLoopback(server.host)
    let secure = server.scheme?.lowercased() == "smtps"
    let milliseconds = CurlTransfer.milliseconds(timeout)
    var ok = gb_easy_setopt_string(easy, CURLOPT_URL, server.absoluteString) == CURLE_OK
    ok = ok && gb_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "smtp,smtps") == CURLE_OK
    ok = ok && gb_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1) == CURLE_OK
    ok = ok && gb_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, handle.errorBuffer) == CURLE_OK
    ok = ok && gb_easy_setopt_string(easy, CURLOPT_MAIL_FROM, "<\(from)>") == CURLE_OK
    ok = ok && gb_easy_setopt_pointer(easy, CURLOPT_MAIL_RCPT, recipients) == CURLE_OK
    ok = ok && gb_easy_setopt_long(easy, CURLOPT_UPLOAD, 1) == CURLE_OK
    ok =
      ok
      && gb_easy_setopt_off(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count)) == CURLE_OK
    ok = ok && gb_easy_setopt_callback(easy, CURLOPT_READFUNCTION, curlReadCallback) == CURLE_OK
    ok = ok && gb_easy_setopt_pointer(easy, CURLOPT_READDATA, context) == CURLE_OK
    ok = ok && gb_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds) == CURLE_OK
    // A step that moves nothing for the timeout ends the exchange (a stalled server).
    ok = ok && gb_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1) == CURLE_OK
    ok =
      ok
      && gb_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, milliseconds / 1000)) == CURLE_OK
    if !secure {
      let level = loopback ? CURLUSESSL_TRY : CURLUSESSL_ALL
      ok = ok && gb_easy_setopt_long(easy, CURLOPT_USE_SSL, Int(level.rawValue)) == CURLE_OK
    }
    if let file = settings.caFile {
      ok = ok && gb_easy_setopt_string(easy, CURLOPT_CAINFO, file) == CURLE_OK
    }
    if let directory = settings.caDirectory {
      ok = ok && gb_easy_setopt_string(easy, CURLOPT_CAPATH, directory) == CURLE_OK
    }
    if let netrc = settings.netrcFile {
      ok = ok && gb_easy_setopt_string(easy, CURLOPT_NETRC_FILE, netrc) == CURLE_OK
      ok = ok && gb_easy_setopt_long(easy, CURLOPT_NETRC, 1) == CURLE_OK
    }
    guard ok else {
      return .failure(.network(server: shown, reason: "libcurl refused the options"))
    }
    let code = withExtendedLifetime(upload) { gb_curl_easy_perform(easy) }
    guard code != CURLE_OK else { return .success(()) }
    var response = 0
    _ = gb_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &response)
    let text = handle.errorMessage
    if code == CURLE_LOGIN_DENIED { return .failure(.loginRefused(server: shown, code: response)) }
    if code == CURLE_USE_SSL_FAILED { return .failure(.noTLS(server: shown)) }
    if response == 552 || text.contains("552") {
      return .failure(.tooLarge(server: shown, bytes: message.count))
    }
    if text.hasPrefix("RCPT failed") {
      return .failure(.recipientRefused(server: shown, recipient: recipient, code: response))
    }
    let reason =
      code == CURLE_OPERATION_TIMEDOUT
      ? "no answer in \(milliseconds / 1000) s"
      : (text.isEmpty ? String(cString: gb_curl_easy_strerror(code)) : text)
    return .failure(.network(server: shown, reason: reason))
  }
}

/// The bytes of a message and how far libcurl has read them (only the thread that performs
/// the transfer touches it).
private final class MailUpload {
  let bytes: [UInt8]
  var offset = 0

  init(_ data: Data) { bytes = [UInt8](data) }

  func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
    let count = min(capacity, bytes.count - offset)
    guard count > 0 else { return 0 }
    bytes.withUnsafeBytes { source in
      buffer.copyMemory(from: source.baseAddress! + offset, byteCount: count)
    }
    offset += count
    return count
  }
}

/// libcurl's read callback: the next bytes of the message.
private let curlReadCallback: gb_data_callback = { buffer, size, count, context in
  guard let buffer, let context else { return 0 }
  let upload = Unmanaged<MailUpload>.fromOpaque(context).takeUnretainedValue()
  return upload.read(into: UnsafeMutableRawPointer(buffer), capacity: size * count)
}
