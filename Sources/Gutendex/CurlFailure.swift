internal import CCurl
import Foundation

/// libcurl's result codes as ``GutendexError``s, in the same few words on every platform: the
/// error buffer's text carries timings and repeats the host, so it is used only where it says
/// something the code does not (a certificate problem).
enum CurlFailure {
  static func error(_ code: CURLcode, message: String, url: URL, timeout: Duration)
    -> GutendexError
  {
    switch code {
    case CURLE_COULDNT_CONNECT:
      return .unreachable(url: url, reason: "could not connect")
    case CURLE_COULDNT_RESOLVE_HOST:
      return .unreachable(url: url, reason: "host not found")
    case CURLE_COULDNT_RESOLVE_PROXY:
      return .unreachable(url: url, reason: "proxy host not found")
    case CURLE_OPERATION_TIMEDOUT:
      return .timedOut(url: url, after: timeout)
    case CURLE_PEER_FAILED_VERIFICATION:
      return .unreachable(url: url, reason: "certificate not trusted" + detail(message))
    case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE:
      return .unreachable(url: url, reason: "secure connection failed" + detail(message))
    case CURLE_PROXY:
      return .unreachable(url: url, reason: "the proxy refused" + detail(message))
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
      return .invalidRequest(reason: "cannot fetch \(url.absoluteString)")
    case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_RANGE_ERROR:
      return .badData(url: url, path: "", reason: "not a valid HTTP answer" + detail(message))
    case CURLE_PARTIAL_FILE:
      return .connectionLost(url: url, reason: "the body ended early")
    case CURLE_GOT_NOTHING:
      return .connectionLost(url: url, reason: "closed without an answer")
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
      return .connectionLost(url: url, reason: "connection reset")
    default:
      return .connectionLost(url: url, reason: String(cString: curl_easy_strerror(code)))
    }
  }

  /// `": <libcurl's message>"` without the host and timings, or nothing.
  private static func detail(_ message: String) -> String {
    var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
    // "SSL certificate problem: unable to get local issuer certificate" → keep what follows
    // the last colon, the part that says what is wrong.
    if let colon = text.lastIndex(of: ":") {
      text = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    text = String(
      text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    return text.isEmpty ? "" : ": " + String(text.prefix(120))
  }
}
