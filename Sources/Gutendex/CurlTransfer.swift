internal import CCurl
import Foundation
import Synchronization

/// One request in flight through ``CurlEngine``: its libcurl handle, the head and the body as
/// they arrive, and the reader waiting for them.
///
/// libcurl calls back on the engine's thread; the reader runs on any task. Bytes are handed to
/// the reader in batches: when the batch reaches ``highWater`` the write callback pauses the
/// transfer (libcurl keeps the bytes and stops reading the socket), and the engine resumes it
/// once the reader has taken the batch. So the bytes in memory stay under about two batches
/// whatever the body's size or the reader's pace.
final class CurlTransfer: Sendable {
  /// Bytes held for the reader before the transfer is paused.
  static let highWater = 1_048_576
  /// A reader that is waiting gets what is there once this much has come in (or at once, at the
  /// end of each round of the engine's loop).
  static let handOver = 256 * 1024

  let url: URL
  let timeout: Duration
  let minimumSpeed: MinimumSpeed?
  let isHead: Bool
  /// The easy handle and its header list. Only the engine's thread touches them once the
  /// transfer is added; before that, only the initialiser.
  let handle: CurlHandle
  private let state: Mutex<State>

  private struct State {
    var status: Int?
    var headers: [String: String] = [:]
    var lengths: Set<String> = []
    var head: CheckedContinuation<StreamedResponse, any Error>?
    var headDelivered = false
    var reader: CheckedContinuation<Data?, any Error>?
    var pending = Data()
    var paused = false
    var cancelled = false
    var finished: GutendexError??
    var lastActivity: ContinuousClock.Instant
    var windowStart: ContinuousClock.Instant
    var windowBytes = 0
  }

  /// A transfer of `request`, its handle made and configured but not yet started.
  init(_ request: HTTPRequest, settings: CurlSettings) throws(GutendexError) {
    url = request.url
    timeout = request.timeout
    minimumSpeed = request.minimumSpeed
    isHead = request.method.uppercased() == "HEAD"
    let now = ContinuousClock.now
    state = Mutex(State(lastActivity: now, windowStart: now))
    guard let easy = gb_curl_easy_init() else {
      throw .invalidRequest(reason: "libcurl could not make a handle")
    }
    handle = CurlHandle(easy: easy)
    try configure(request, settings: settings)
  }

  deinit {
    handle.release()
  }

  private func configure(_ request: HTTPRequest, settings: CurlSettings) throws(GutendexError) {
    let easy = handle.easy
    let scheme = request.url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https", request.url.host != nil else {
      throw .invalidRequest(reason: "only http and https URLs are fetched: \(request.url.redacted)")
    }
    var headers: [String] = []
    for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
      // A value from a file or a server (a validator, say) must never smuggle in a header:
      // checked on scalars, as "\r\n" is one Character in Swift.
      guard Self.isToken(name), Self.isHeaderValue(value) else {
        throw .invalidRequest(reason: "header \(name) has characters HTTP does not allow")
      }
      headers.append("\(name): \(value)")
    }
    handle.setHeaders(headers)
    let context = Unmanaged.passUnretained(self).toOpaque()
    var ok = true
    ok = ok && gb_easy_setopt_string(easy, CURLOPT_URL, request.url.absoluteString) == CURLE_OK
    ok = ok && gb_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK
    ok = ok && gb_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1) == CURLE_OK
    ok = ok && gb_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0) == CURLE_OK
    ok = ok && gb_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1) == CURLE_OK
    ok = ok && gb_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 256 * 1024) == CURLE_OK
    ok =
      ok
      && gb_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeout))
        == CURLE_OK
    ok = ok && gb_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, handle.errorBuffer) == CURLE_OK
    ok = ok && gb_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, handle.headerList) == CURLE_OK
    ok = ok && gb_easy_setopt_callback(easy, CURLOPT_HEADERFUNCTION, curlHeaderCallback) == CURLE_OK
    ok = ok && gb_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context) == CURLE_OK
    ok = ok && gb_easy_setopt_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteCallback) == CURLE_OK
    ok = ok && gb_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context) == CURLE_OK
    ok =
      ok && gb_easy_setopt_string(easy, CURLOPT_PROXY, settings.proxy(for: request.url)) == CURLE_OK
    if let noProxy = settings.noProxy {
      ok = ok && gb_easy_setopt_string(easy, CURLOPT_NOPROXY, noProxy) == CURLE_OK
    }
    if let file = settings.caFile {
      ok = ok && gb_easy_setopt_string(easy, CURLOPT_CAINFO, file) == CURLE_OK
    }
    if let directory = settings.caDirectory {
      ok = ok && gb_easy_setopt_string(easy, CURLOPT_CAPATH, directory) == CURLE_OK
    }
    if let netrc = settings.netrcFile {
      // Credentials a URL does not carry come from the user's own 0600 `~/.netrc`.
      ok = ok && gb_easy_setopt_string(easy, CURLOPT_NETRC_FILE, netrc) == CURLE_OK
      ok = ok && gb_easy_setopt_long(easy, CURLOPT_NETRC, 1) == CURLE_OK
    }
    if let body = request.body {
      // Copied by libcurl, so the bytes need not outlive this call; the size first, as the
      // body may hold NUL bytes.
      ok =
        ok
        && gb_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)) == CURLE_OK
      ok =
        ok
        && body.withUnsafeBytes { bytes in
          guard let start = bytes.baseAddress, !bytes.isEmpty else {
            return gb_easy_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
          }
          return gb_easy_setopt_pointer(
            easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: start))
        } == CURLE_OK
    }
    switch request.method.uppercased() {
    case "GET" where request.body == nil: break
    case "POST" where request.body != nil: break
    case "HEAD": ok = ok && gb_easy_setopt_long(easy, CURLOPT_NOBODY, 1) == CURLE_OK
    default:
      guard Self.isToken(request.method) else {
        throw .invalidRequest(reason: "not an HTTP method: \(request.method)")
      }
      ok = ok && gb_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method) == CURLE_OK
    }
    guard ok else {
      throw .invalidRequest(reason: "libcurl refused the request for \(url.redacted)")
    }
  }

  // MARK: - The reader's side

  /// Hands the transfer to `engine` and waits for the head (or the failure).
  func start(on engine: CurlEngine) async throws -> StreamedResponse {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let early = state.withLock { state -> (any Error)? in
          if state.cancelled { return GutendexError.cancelled(url: url) }
          state.head = continuation
          return nil
        }
        if let early {
          continuation.resume(throwing: early)
        } else {
          engine.add(self)
        }
      }
    } onCancel: {
      self.cancel()
    }
  }

  /// The next batch of the body, nil at its end.
  func nextPiece(engine: CurlEngine) async throws -> Data? {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (outcome, wake) = state.withLock { state -> (Result<Data?, any Error>?, Bool) in
          if !state.pending.isEmpty {
            let piece = state.pending
            state.pending = Data()
            return (.success(piece), state.paused)
          }
          if state.cancelled { return (.failure(GutendexError.cancelled(url: url)), false) }
          if let finished = state.finished {
            return (finished.map { .failure($0) } ?? .success(nil), false)
          }
          state.reader = continuation
          return (nil, state.paused)
        }
        // The engine resumes a paused transfer once its batch is taken.
        if wake { engine.wake() }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      self.cancel()
    }
  }

  /// Stops the transfer: the reader is answered at once, the engine drops the handle.
  func cancel() {
    let (head, reader, wasActive) = state.withLock { state in
      guard !state.cancelled, state.finished == nil else {
        return (
          CheckedContinuation<StreamedResponse, any Error>?.none,
          CheckedContinuation<Data?, any Error>?.none, false
        )
      }
      state.cancelled = true
      defer {
        state.head = nil
        state.reader = nil
        state.pending = Data()
      }
      return (state.head, state.reader, true)
    }
    head?.resume(throwing: GutendexError.cancelled(url: url))
    reader?.resume(throwing: GutendexError.cancelled(url: url))
    if wasActive { CurlEngine.shared?.wake() }
  }

  var isCancelled: Bool { state.withLock { $0.cancelled } }

  // MARK: - The engine's side (its thread only)

  /// One header line from libcurl (status line, field, or the blank line ending the head).
  func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let line = String(decoding: bytes, as: UTF8.self)
    let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
    var failure: GutendexError?
    var head: (CheckedContinuation<StreamedResponse, any Error>, Int, [String: String], Int64?)?
    let alive = state.withLock { state -> Bool in
      if state.cancelled || state.finished != nil { return false }
      state.lastActivity = .now
      if line.hasPrefix("HTTP/") {
        // A new head: after a 1xx, libcurl passes the final one too.
        let fields = trimmed.split(separator: " ", maxSplits: 2)
        state.status = fields.count > 1 ? Int(fields[1]) : nil
        state.headers = [:]
        state.lengths = []
        if state.status == nil {
          failure = .badData(url: url, path: "", reason: "a bad status line")
        }
      } else if trimmed.isEmpty {
        guard let status = state.status, !(100..<200).contains(status) else { return true }
        let length: Int64?
        switch Self.contentLength(state.lengths) {
        case .success(let value): length = value
        case .failure(let bad):
          failure = .badData(url: url, path: "", reason: bad.reason)
          return true
        }
        if let continuation = state.head {
          head = (continuation, status, state.headers, length)
          state.head = nil
        }
        state.headDelivered = true
      } else if let colon = trimmed.firstIndex(of: ":") {
        let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if name == "content-length" {
          state.lengths.insert(value)
        }
        if let earlier = state.headers[name], name != "content-length" {
          state.headers[name] = earlier + ", " + value
        } else {
          state.headers[name] = value
        }
      }
      return true
    }
    guard alive else { return false }
    if let failure {
      finish(.some(failure))
      return false
    }
    // Made outside the lock: the body's owner cancels the transfer (taking the lock) when the
    // last copy of the body is dropped.
    if let (continuation, status, headers, length) = head {
      let bodyless = isHead || status == 204 || status == 304
      continuation.resume(
        returning: StreamedResponse(
          status: status, headers: headers, url: url,
          body: HTTPBody(length: bodyless ? 0 : length, source: Reader(transfer: self))))
    }
    return true
  }

  /// Bytes of the body from libcurl: taken, or refused for now (the transfer pauses).
  func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
    let (taken, handOff) = state.withLock {
      state -> (Int, (CheckedContinuation<Data?, any Error>, Data)?) in
      if state.cancelled || state.finished != nil { return (0, nil) }
      if state.pending.count >= Self.highWater {
        state.paused = true
        return (gb_writefunc_pause(), nil)
      }
      if state.pending.isEmpty {
        // One allocation per batch: growing from nothing by doubling copied every byte again.
        state.pending.reserveCapacity(Self.highWater + bytes.count)
      }
      state.pending.append(bytes.bindMemory(to: UInt8.self))
      state.lastActivity = .now
      state.windowBytes += bytes.count
      guard state.pending.count >= Self.handOver, let reader = state.reader else {
        return (bytes.count, nil)
      }
      state.reader = nil
      defer { state.pending = Data() }
      return (bytes.count, (reader, state.pending))
    }
    if let (reader, piece) = handOff { reader.resume(returning: piece) }
    return taken
  }

  /// After each round of the loop: hands a waiting reader what has come, and says whether the
  /// paused transfer may go on (its batch was taken).
  func afterRound() -> Bool {
    let (reader, piece, resume) = state.withLock {
      state -> (CheckedContinuation<Data?, any Error>?, Data, Bool) in
      var reader: CheckedContinuation<Data?, any Error>?
      var piece = Data()
      if !state.pending.isEmpty, let waiting = state.reader {
        reader = waiting
        piece = state.pending
        state.pending = Data()
        state.reader = nil
      }
      let resume = state.paused && state.pending.count < Self.highWater
      if resume {
        state.paused = false
        // Time spent waiting for the reader is the reader's, not the server's.
        state.lastActivity = .now
        state.windowStart = .now
        state.windowBytes = 0
      }
      return (reader, piece, resume)
    }
    reader?.resume(returning: piece)
    return resume
  }

  /// Why the transfer must end now (nothing for the timeout, or slower than the minimum).
  func overdue(at now: ContinuousClock.Instant) -> GutendexError? {
    state.withLock { state in
      guard !state.paused else { return nil }
      if now - state.lastActivity > timeout { return .timedOut(url: url, after: timeout) }
      guard let minimum = minimumSpeed, now - state.windowStart >= minimum.window else {
        return nil
      }
      let seconds =
        Double(minimum.window.components.seconds)
        + Double(minimum.window.components.attoseconds) / 1e18
      if Double(state.windowBytes) < Double(minimum.bytesPerSecond) * seconds {
        return .tooSlow(url: url, minimum: minimum)
      }
      state.windowStart = now
      state.windowBytes = 0
      return nil
    }
  }

  /// Ends the transfer with libcurl's result (and a proxy's answer to CONNECT, 0 if none).
  func finish(code: CURLcode, connectStatus: Int = 0) {
    if code == CURLE_OK {
      finish(GutendexError?.none)
    } else {
      finish(
        .some(
          CurlFailure.error(
            code, message: errorMessage, url: url, timeout: timeout,
            connectStatus: connectStatus)))
    }
  }

  /// Ends the transfer: nil for success. The first ending counts.
  func finish(_ outcome: GutendexError?) {
    let (head, reader, piece, failure) = state.withLock {
      state -> (
        CheckedContinuation<StreamedResponse, any Error>?, CheckedContinuation<Data?, any Error>?,
        Data?, GutendexError?
      ) in
      guard state.finished == nil else { return (nil, nil, nil, nil) }
      var outcome = outcome
      if outcome == nil, !state.headDelivered {
        outcome = .connectionLost(url: url, reason: "no HTTP response")
      }
      state.finished = .some(outcome)
      defer {
        state.head = nil
        state.reader = nil
      }
      var piece: Data?
      if state.reader != nil, !state.pending.isEmpty {
        piece = state.pending
        state.pending = Data()
      }
      return (state.head, state.reader, piece, outcome)
    }
    head?.resume(
      throwing: failure ?? GutendexError.connectionLost(url: url, reason: "no HTTP response"))
    if let reader {
      if let piece {
        reader.resume(returning: piece)
      } else if let failure {
        reader.resume(throwing: failure)
      } else {
        reader.resume(returning: nil)
      }
    }
  }

  private var errorMessage: String { handle.errorMessage }

  // MARK: - Checks

  /// The body's length from its `Content-Length` fields: all equal, digits only, in range.
  static func contentLength(_ values: Set<String>) -> Result<Int64?, BadLength> {
    guard let value = values.first else { return .success(nil) }
    guard values.count == 1 else {
      return .failure(
        BadLength(
          reason: "conflicting Content-Length headers (\(values.sorted().joined(separator: ", ")))")
      )
    }
    guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let length = Int64(value)
    else {
      return .failure(BadLength(reason: "a bad Content-Length: \(value.prefix(40))"))
    }
    return .success(length)
  }

  /// Why a `Content-Length` cannot be believed.
  struct BadLength: Error {
    var reason: String
  }

  /// An HTTP token (RFC 9110): a method or a header name.
  static func isToken(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (0x21...0x7E).contains(byte) && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
      }
  }

  /// A header value: visible characters, spaces and tabs, no CR, LF or other control bytes.
  static func isHeaderValue(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
  }

  static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    let total = seconds.multipliedReportingOverflow(by: 1000)
    guard !total.overflow else { return Int.max }
    return max(1, Int(total.partialValue + attoseconds / 1_000_000_000_000_000))
  }

  /// The body's pieces, read through the transfer.
  private struct Reader: HTTPBody.Source {
    let transfer: CurlTransfer
    let owner: Owner

    init(transfer: CurlTransfer) {
      self.transfer = transfer
      owner = Owner(transfer: transfer)
    }

    func next() async throws -> Data? {
      // A transfer exists only once the engine has started, so the engine is there.
      guard let engine = CurlEngine.shared else { return nil }
      return try await transfer.nextPiece(engine: engine)
    }

    func cancel() {
      transfer.cancel()
    }
  }

  /// Stops the transfer when the last copy of its body is dropped unread.
  private final class Owner: Sendable {
    let transfer: CurlTransfer

    init(transfer: CurlTransfer) {
      self.transfer = transfer
    }

    deinit {
      transfer.cancel()
    }
  }
}

/// libcurl's header callback: one line at a time.
private let curlHeaderCallback: gb_data_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
  return transfer.receiveHeader(bytes) ? size * count : 0
}

/// libcurl's write callback: a piece of the body.
private let curlWriteCallback: gb_data_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
}
