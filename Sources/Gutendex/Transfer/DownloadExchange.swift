import Foundation
import Synchronization

/// One request of a download: decides from the head what the body is (the whole file, the rest
/// of a part, a redirect, a reason to start over) and appends the body to the part file, piece
/// by piece, at the pace of the disk (the transport reads the socket no faster).
final class DownloadExchange: Sendable {
  /// How the exchange ended, as far as the head tells.
  enum Outcome: Sendable {
    /// A 3xx with this `Location`.
    case redirect(String?)
    /// The part cannot be resumed: ask again without `Range`.
    case restart(DownloadResult.Restart)
    /// An error status.
    case failed(GutendexError)
    /// The body follows (all of it, or the rest of the part).
    case body(validator: String?, total: Int64?)
    /// 416 for a part that already has every byte.
    case complete(validator: String?, total: Int64?)
    /// An answer that is not the file (an HTML page where a book was asked for): why.
    case notTheFile(String)
    /// 304 to a conditional request: the file is the one its validators name.
    case notModified
  }

  private struct State {
    var outcome: Outcome?
    var sink: FileSink?
    var received: Int64 = 0
    var total: Int64?
    var resumed: Int64?
    var restartReason: DownloadResult.Restart?
    var status: Int?
    var etag: String?
    var lastModified: String?
    var retryAfter: Duration?
  }

  private let state = Mutex(State())
  let original: URL
  let partial: PartialDownload
  let resume: (offset: Int64, info: PartialDownload.Info)?
  /// What the file must look like (its `Content-Type` is checked here).
  let expected: ExpectedContent
  /// Whether the request was conditional (`If-None-Match`, `If-Modified-Since`): only then is a
  /// 304 an answer rather than an error.
  let conditional: Bool
  let progress: @Sendable (DownloadProgress) -> Void

  init(
    original: URL, partial: PartialDownload, resume: (offset: Int64, info: PartialDownload.Info)?,
    expected: ExpectedContent = .any, conditional: Bool = false,
    progress: @escaping @Sendable (DownloadProgress) -> Void
  ) {
    self.original = original
    self.partial = partial
    self.resume = resume
    self.expected = expected
    self.conditional = conditional
    self.progress = progress
  }

  var outcome: Outcome? { state.withLock { $0.outcome } }
  /// The offset a 206 continued from, nil for a whole-file answer.
  var resumed: Int64? { state.withLock { $0.resumed } }
  /// The HTTP status of the answer, once its head arrived.
  var status: Int? { state.withLock { $0.status } }
  /// Set when a part was there but the server sent the whole file instead.
  var restartReason: DownloadResult.Restart? { state.withLock { $0.restartReason } }
  /// The answer's `ETag` and `Last-Modified`, as sent (nil: none).
  var validators: (etag: String?, lastModified: String?) {
    state.withLock { ($0.etag, $0.lastModified) }
  }
  /// The `Retry-After` of a 429 or 503, when it gave one.
  var retryAfter: Duration? { state.withLock { $0.retryAfter } }
  func close() {
    state.withLock { $0.sink }?.closeFile()
  }

  /// The strong ETag, else Last-Modified: what `If-Range` accepts.
  static func validator(_ head: StreamedResponse) -> String? {
    if let etag = head.header("etag"), !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
    if let date = head.header("last-modified"), !date.isEmpty { return date }
    return nil
  }

  /// `bytes first-last/total` → (first, total); `bytes */total` → (nil, total).
  static func contentRange(_ text: String?) -> (first: Int64?, total: Int64?)? {
    guard let text, text.lowercased().hasPrefix("bytes ") else { return nil }
    let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
    let parts = spec.split(separator: "/", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { return nil }
    let total = Int64(parts[1])
    if parts[0] == "*" { return (nil, total) }
    guard let dash = parts[0].firstIndex(of: "-"), let first = Int64(parts[0][..<dash]) else {
      return nil
    }
    return (first, total)
  }

  /// Reads `response`: the head decides, then the body (if wanted) goes to the part file.
  func run(_ response: StreamedResponse) async throws {
    guard try receiveHead(response) == .receive else {
      response.body.cancel()
      return
    }
    do {
      for try await piece in response.body {
        try receiveChunk(piece)
      }
    } catch {
      response.body.cancel()
      throw error
    }
  }

  /// Whether the body is wanted.
  enum Disposition {
    case receive
    case stop
  }

  private func receiveHead(_ head: StreamedResponse) throws -> Disposition {
    let validator = Self.validator(head)
    state.withLock {
      $0.status = head.status
      $0.etag = head.header("etag").flatMap { $0.isEmpty ? nil : $0 }
      $0.lastModified = head.header("last-modified").flatMap { $0.isEmpty ? nil : $0 }
    }
    if head.status == 200 || head.status == 206,
      let problem = expected.problem(contentType: head.header("content-type"))
    {
      // A page where the file should be: nothing of it is written (a part there stays).
      set(.notTheFile(problem))
      return .stop
    }
    switch head.status {
    case 301, 302, 303, 307, 308:
      set(.redirect(head.header("location")))
      return .stop
    case 200:
      let total = head.header("content-length").flatMap { Int64($0) }
      let reason: DownloadResult.Restart? =
        resume.map { validator != $0.info.validator ? .validatorChanged : .rangeNotSupported }
      setAsideIfForeign()
      let sink = try open(truncate: true)
      let takesRanges = head.header("accept-ranges")?.lowercased().contains("bytes") == true
      if takesRanges, let validator {
        try save(
          PartialDownload.Info(url: original.redacted, validator: validator, total: total))
      } else {
        partial.removeInfo()
      }
      state.withLock {
        $0.sink = sink
        $0.total = total
        $0.restartReason = reason
        $0.outcome = .body(validator: validator, total: total)
      }
      return .receive
    case 206:
      guard let resume, let range = Self.contentRange(head.header("content-range")),
        range.first == resume.offset
      else {
        setAsideIfForeign()
        set(.restart(.rangeNotSupported))
        return .stop
      }
      if let validator, validator != resume.info.validator {
        setAsideIfForeign()
        set(.restart(.validatorChanged))
        return .stop
      }
      // Another mirror's copy with the same validator but another size is another file.
      if let known = resume.info.total, let total = range.total, known != total {
        setAsideIfForeign()
        set(.restart(.validatorChanged))
        return .stop
      }
      let sink = try open(truncate: false)
      state.withLock {
        $0.sink = sink
        $0.received = resume.offset
        $0.resumed = resume.offset
        $0.total = range.total
        $0.outcome = .body(validator: resume.info.validator, total: range.total)
      }
      return .receive
    case 416:
      if let resume, let range = Self.contentRange(head.header("content-range")),
        range.first == nil, range.total == resume.offset
      {
        set(.complete(validator: resume.info.validator, total: range.total))
      } else {
        set(.restart(.rangeNotSupported))
      }
      return .stop
    case 304 where conditional:
      set(.notModified)
      return .stop
    case 429:
      let seconds = head.header("retry-after").flatMap {
        Int($0.trimmingCharacters(in: .whitespaces))
      }
      set(.failed(.rateLimited(retryAfter: seconds.map { .seconds($0) }, url: head.url)))
      return .stop
    case 500..<600:
      // A 503's Retry-After (seconds or a date) says when to ask again; the retry honours it.
      if head.status == 503 {
        let wait = GutendexClient.retryAfter(head.header("retry-after"))
        state.withLock { $0.retryAfter = wait }
      }
      set(.failed(.serverError(status: head.status, url: head.url)))
      return .stop
    case 407:
      // The proxy's answer, not the server's: the server was never reached.
      set(.failed(.unreachable(url: head.url, reason: CurlFailure.proxyLogin)))
      return .stop
    default:
      let detail = head.status == 404 ? "no such file on the server" : nil
      set(.failed(.http(status: head.status, detail: detail, url: head.url)))
      return .stop
    }
  }

  private func receiveChunk(_ data: Data) throws {
    let (sink, received, total, resumed) = state.withLock {
      state -> (FileSink?, Int64, Int64?, Int64) in
      state.received += Int64(data.count)
      return (state.sink, state.received, state.total, state.resumed ?? 0)
    }
    try sink?.append(data)
    progress(DownloadProgress(received: received, total: total, resumedFrom: resumed))
  }

  private func set(_ outcome: Outcome) {
    state.withLock { $0.outcome = outcome }
  }

  /// A part another mirror left, which this one will not continue, is set aside rather than
  /// overwritten: it is kept until the new download completes.
  private func setAsideIfForeign() {
    guard let resume, resume.info.url != original.redacted else { return }
    partial.setAside()
  }

  private func open(truncate: Bool) throws(FileSink.Failure) -> FileSink {
    try FileSink(path: partial.partURL.path, truncate: truncate)
  }

  private func save(_ info: PartialDownload.Info) throws(FileSink.Failure) {
    do {
      try partial.save(info)
    } catch {
      throw FileSink.Failure(reason: "cannot record the partial download: \(error)")
    }
  }
}
