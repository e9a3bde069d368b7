import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Downloads one file to disk: streamed to `<name>.part`, resumed with `Range` and `If-Range`
/// when a part is there, retried with backoff on 5xx, 429 and lost connections, and only
/// renamed to its name once complete, of the announced length and fsynced.
///
/// Redirects are followed (up to ``maxRedirects``) only to https, or to http on a loopback
/// host; a partial file is kept only when the server gave a validator and takes ranges, so that
/// a later run can resume it; otherwise nothing but the finished file is ever left behind.
public final class Downloader: Sendable {
  /// Redirects followed at most per attempt.
  public static let maxRedirects = RedirectPolicy.limit

  let transport: any Requestable
  let retry: RetryPolicy
  /// A transfer that receives nothing for this long fails with ``DownloadError/stalled``.
  public let stallTimeout: Duration
  /// A transfer slower than this for a whole window fails as stalled too.
  public let minimumSpeed: MinimumSpeed?
  /// Told about every request a download sends, redirects included, once it ends (for
  /// `--verbose`); called from any thread.
  public let observer: (@Sendable (RequestEvent) -> Void)?

  /// A downloader over `transport` (libcurl by default); by default 4 attempts, a 30 s stall
  /// timeout and the standard minimum speed.
  public init(
    transport: any Requestable = CurlTransport(),
    retry: RetryPolicy = RetryPolicy(maxAttempts: 4), stallTimeout: Duration = .seconds(30),
    minimumSpeed: MinimumSpeed? = .standard,
    observer: (@Sendable (RequestEvent) -> Void)? = nil
  ) {
    self.transport = transport
    self.retry = retry
    self.stallTimeout = stallTimeout
    self.minimumSpeed = minimumSpeed
    self.observer = observer
  }

  /// A downloader sending through `pipeline` (its transport, and its observer told about every
  /// request), as the rest of the program's requests are.
  public convenience init(
    pipeline: HTTPPipeline, retry: RetryPolicy = RetryPolicy(maxAttempts: 4),
    stallTimeout: Duration = .seconds(30), minimumSpeed: MinimumSpeed? = .standard
  ) {
    self.init(
      transport: pipeline.transport, retry: retry, stallTimeout: stallTimeout,
      minimumSpeed: minimumSpeed, observer: pipeline.observer)
  }

  /// Downloads `url` to `destination` (its directory must exist), resuming a part left by an
  /// earlier run. `progress` is called on every piece received, from any thread.
  ///
  /// The caller holds the target's ``DownloadLock``. A part with a valid sidecar is never
  /// deleted because of a failure (only a server answer that proves it useless replaces it).
  /// With `markPublished`, a ``PublishedMark`` is written before the file gets its name; the
  /// caller removes it (``confirmRecorded(_:)``) once the file is recorded.
  ///
  /// `sameFile`: the same file at other mirrors; a part one of them left is resumed here too,
  /// when this server's copy has the part's validator and size. `expecting`: what the file
  /// must look like; an answer that is not it fails with ``DownloadError/notTheFile(url:reason:)``
  /// and leaves nothing of itself.
  public func download(
    from url: URL, to destination: URL, replace: Bool = false, markPublished: Bool = false,
    sameFile: [URL] = [], expecting: ExpectedContent = .any,
    progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }
  ) async throws(DownloadError) -> DownloadResult {
    let answer = try await fetch(
      from: url, to: destination, replace: replace, markPublished: markPublished,
      sameFile: sameFile, expecting: expecting, condition: nil, progress: progress)
    guard case .replaced(let result) = answer else {
      // Never: a 304 is an answer only to a conditional request, and this one was not.
      throw .server(.http(status: 304, detail: nil, url: url))
    }
    return result
  }

  /// What a conditional download found.
  public enum Refreshed: Sendable {
    /// 304: the server's file is the copy's; nothing was written.
    case unchanged
    /// The server sent the file, now at its name (the old one replaced by a rename).
    case replaced(DownloadResult)
    /// The server sent the file (it ignored the condition), and it has the bytes the file at
    /// the destination has: that file is left as it was, the part removed. The result says
    /// what the server sent (its validators), `path` the untouched file.
    case sameBytes(DownloadResult)
  }

  /// Downloads `url` over the file at `destination` only if the server's copy differs from it
  /// (`condition`: its validators): 304 writes nothing, 200 goes to the part file and replaces
  /// the file by a rename once complete and synced, so the old file stays whole until then;
  /// a complete part with the file's own bytes (a server that ignores conditions) is removed
  /// instead, and the file not touched. Otherwise as
  /// ``download(from:to:replace:markPublished:sameFile:expecting:progress:)``.
  public func refresh(
    from url: URL, to destination: URL, condition: ConditionalRequest,
    markPublished: Bool = false, expecting: ExpectedContent = .any,
    progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }
  ) async throws(DownloadError) -> Refreshed {
    try await fetch(
      from: url, to: destination, replace: true, markPublished: markPublished, sameFile: [],
      expecting: expecting, condition: condition, keepsSameBytes: true, progress: progress)
  }

  private func fetch(
    from url: URL, to destination: URL, replace: Bool, markPublished: Bool,
    sameFile: [URL], expecting: ExpectedContent, condition: ConditionalRequest?,
    keepsSameBytes: Bool = false, progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws(DownloadError) -> Refreshed {
    let path = destination.path
    if !replace, DownloadFile.kind(path) != .absent { throw .exists(path: path) }
    let partial = PartialDownload(destination: destination)
    if let unsafe = partial.unsafeFile() {
      throw .disk(
        path: unsafe.path, reason: "it is \(unsafe.kind), not a regular file; not following it",
        resumable: false)
    }
    var record = Record()
    var attempt = 1
    while true {
      do {
        guard
          let finalURL = try await transfer(
            url, partial, &record, attempt: attempt, sameFile: sameFile, expecting: expecting,
            condition: condition, progress: progress)
        else { return .unchanged }
        try Self.check(partial, expecting, from: finalURL)
        if keepsSameBytes, DownloadFile.sameBytes(partial.partURL.path, path) {
          partial.remove()
          return .sameBytes(
            DownloadResult(
              path: destination, size: partial.sizeOf(path),
              validator: record.validator, etag: record.etag, lastModified: record.lastModified,
              resumedFrom: 0, restart: record.restart, finalURL: finalURL))
        }
        return .replaced(
          try finish(
            partial, destination, replace: replace, markPublished: markPublished, record,
            url: url, finalURL: finalURL))
      } catch let error as DownloadError {
        throw Self.keeping(error, partial)
      } catch {
        let failure = classify(error, url: url, partial: partial)
        guard case .server(let server) = failure, server.isTransient,
          attempt < retry.maxAttempts
        else {
          if case .server(let server) = failure, server.isTransient {
            throw Self.keeping(
              .failedAfterRetries(server, kept: partial.partSize, resumable: partial.isResumable),
              partial)
          }
          throw Self.keeping(failure, partial)
        }
        do {
          try await Task.sleep(
            for: delay(after: server, retryAfter: record.retryAfter, retry: attempt))
        } catch {
          throw .interrupted(kept: partial.partSize, resumable: partial.isResumable)
        }
        attempt += 1
      }
    }
  }

  /// `failure` as thrown once the part is dealt with: a part that can be resumed is kept, and a
  /// network failure then says so (a refused or reset reconnect is no reason to lose it); a
  /// part that cannot be resumed is removed.
  static func keeping(_ failure: DownloadError, _ partial: PartialDownload) -> DownloadError {
    guard partial.isResumable else {
      // A file that appeared at the destination meanwhile leaves the finished part in place.
      if case .exists = failure { return failure }
      partial.remove()
      return failure
    }
    if case .server(let server) = failure {
      return .failedAfterRetries(server, kept: partial.partSize, resumable: true)
    }
    return failure
  }

  /// Removes the ``PublishedMark`` of `destination`: its library row is recorded.
  public static func confirmRecorded(_ destination: URL) {
    PublishedMark.remove(for: destination)
  }

  /// What one download learned across its attempts.
  struct Record {
    var resumedFrom: Int64?
    var restart: DownloadResult.Restart?
    var validator: String?
    var total: Int64?
    var etag: String?
    var lastModified: String?
    /// The last 503's `Retry-After` (a 429's travels in its error).
    var retryAfter: Duration?
  }

  /// One attempt: requests, follows redirects, restarts from zero when the part cannot be
  /// resumed; returns the URL that served the whole file, nil for a 304 to `condition`.
  private func transfer(
    _ url: URL, _ partial: PartialDownload, _ record: inout Record, attempt: Int,
    sameFile: [URL], expecting: ExpectedContent, condition: ConditionalRequest?,
    progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws -> URL? {
    var current = url
    var redirects = 0
    var fresh = false
    while true {
      let resume = fresh ? nil : partial.resumePoint(for: url, sameFile: sameFile)
      if resume == nil { partial.remove() }
      if record.resumedFrom == nil { record.resumedFrom = resume?.offset ?? 0 }
      var headers = ["User-Agent": HTTPPipeline.userAgent, "Accept-Encoding": "identity"]
      if let resume {
        headers["Range"] = "bytes=\(resume.offset)-"
        headers["If-Range"] = resume.info.validator
      }
      // Sent at every hop: the redirect's target is the file the condition is about. With a
      // part (an update cut short), a server whose file is still the old one answers 304; one
      // whose file is the part's continues it (If-Range).
      let conditionHeaders = condition?.headers ?? [:]
      headers.merge(conditionHeaders) { _, new in new }
      let exchange = DownloadExchange(
        original: url, partial: partial, resume: resume, expected: expecting,
        conditional: !conditionHeaders.isEmpty, progress: progress)
      let request = HTTPRequest(
        url: current, headers: headers, timeout: stallTimeout, minimumSpeed: minimumSpeed)
      let started = ContinuousClock.now
      func report(_ error: (any Error)?) {
        guard let observer else { return }
        var failure = error as? GutendexError
        if failure == nil, case .failed(let answer)? = exchange.outcome { failure = answer }
        observer(
          RequestEvent(
            url: current, status: exchange.status, error: failure,
            duration: ContinuousClock.now - started, attempt: attempt))
      }
      do {
        try await exchange.run(try await transport.open(request))
      } catch let failure as FileSink.Failure {
        exchange.close()
        report(nil)
        throw DownloadError.disk(
          path: partial.partURL.path, reason: failure.reason, resumable: partial.isResumable)
      } catch {
        exchange.close()
        report(error)
        throw error
      }
      exchange.close()
      report(nil)
      switch exchange.outcome {
      case .redirect(let location):
        redirects += 1
        guard redirects <= Self.maxRedirects else { throw DownloadError.tooManyRedirects(url: url) }
        current = try Self.redirectTarget(from: current, location: location)
      case .restart(let reason):
        guard !fresh else {
          throw GutendexError.badData(
            url: current, path: "", reason: "a partial answer to a request for the whole file")
        }
        record.restart = reason
        fresh = true
      case .failed(let error):
        record.retryAfter = exchange.retryAfter
        throw error
      case .notModified:
        return nil
      case .notTheFile(let reason):
        throw DownloadError.notTheFile(url: current, reason: reason)
      case .body(let validator, let total), .complete(let validator, let total):
        record.validator = validator
        record.total = total
        (record.etag, record.lastModified) = exchange.validators
        let size = partial.partSize
        if let total, size != total {
          // The connection ended early without libcurl noticing: a lost connection.
          throw GutendexError.connectionLost(
            url: current, reason: "body ended at \(size) of \(total) bytes")
        }
        if exchange.restartReason != nil { record.restart = exchange.restartReason }
        return current
      case .none:
        throw GutendexError.connectionLost(url: current, reason: "no HTTP response")
      }
    }
  }

  /// Throws when the complete part does not begin as `expected` says the file does (an HTML
  /// page, binary data for a text): the part is removed, as nothing of it is the book.
  private static func check(_ partial: PartialDownload, _ expected: ExpectedContent, from url: URL)
    throws(DownloadError)
  {
    guard expected != .any,
      let fd = try? RegularFile.open(partial.partURL.path, flags: O_RDONLY, followingLinks: false)
    else { return }
    var start = [UInt8](repeating: 0, count: ExpectedContent.sniffLength)
    let count = start.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    close(fd)
    guard count > 0, let problem = expected.problem(start: start.prefix(count)) else { return }
    partial.remove()
    throw .notTheFile(url: url, reason: problem)
  }

  /// Flushes the part, checks it, and moves it to its name (never over an existing file unless
  /// `replace`).
  private func finish(
    _ partial: PartialDownload, _ destination: URL, replace: Bool, markPublished: Bool,
    _ record: Record, url: URL, finalURL: URL
  ) throws(DownloadError) -> DownloadResult {
    let part = partial.partURL.path
    let path = destination.path
    // An empty file is a valid download: the part may not exist when the body was empty.
    if DownloadFile.kind(part) == .absent {
      do {
        _ = try FileSink(path: part, truncate: true)
      } catch {
        throw .disk(path: part, reason: error.reason, resumable: false)
      }
    }
    do {
      let sink = try FileSink(path: part, truncate: false)
      try sink.sync()
      sink.closeFile()
    } catch {
      throw .disk(path: part, reason: error.reason, resumable: partial.isResumable)
    }
    if markPublished {
      // A validator that could not go out as a header is not kept either.
      let validator = record.validator.flatMap {
        PartialDownload.problem(validator: $0) == nil ? $0 : nil
      }
      let mark = PublishedMark(url: url.redacted, size: partial.partSize, validator: validator)
      do {
        try mark.write(for: destination)
      } catch {
        throw .disk(
          path: PublishedMark.path(for: destination), reason: error.reason,
          resumable: partial.isResumable)
      }
    }
    if replace {
      guard rename(part, path) == 0 else {
        throw .disk(path: path, reason: FileSink.message(errno), resumable: partial.isResumable)
      }
    } else {
      // link(2) never replaces: a file that appeared meanwhile is not overwritten.
      guard link(part, path) == 0 else {
        let code = errno
        if code == EEXIST { throw .exists(path: path) }
        throw .disk(path: path, reason: FileSink.message(code), resumable: partial.isResumable)
      }
      unlink(part)
    }
    partial.removeInfo()
    partial.removeAside()
    FileSink.syncDirectory(destination.deletingLastPathComponent().path)
    return DownloadResult(
      path: destination, size: partial.sizeOf(path), validator: record.validator,
      etag: record.etag, lastModified: record.lastModified,
      resumedFrom: record.restart == nil ? (record.resumedFrom ?? 0) : 0,
      restart: record.restart, finalURL: finalURL)
  }

  /// Maps what an attempt threw onto a ``DownloadError``.
  private func classify(_ error: any Error, url: URL, partial: PartialDownload) -> DownloadError {
    let kept = partial.partSize
    let resumable = partial.isResumable
    switch error {
    case let error as DownloadError: return error
    case is CancellationError: return .interrupted(kept: kept, resumable: resumable)
    case let error as GutendexError:
      switch error {
      case .cancelled: return .interrupted(kept: kept, resumable: resumable)
      case .timedOut:
        return .stalled(url: url, after: stallTimeout, kept: kept, resumable: resumable)
      case .tooSlow:
        // Like a stall: the server is there but too slow to finish; the part is kept.
        return .failedAfterRetries(error, kept: kept, resumable: resumable)
      default:
        return Task.isCancelled ? .interrupted(kept: kept, resumable: resumable) : .server(error)
      }
    default:
      return .server(.connectionLost(url: url, reason: String(describing: error)))
    }
  }

  private func delay(after error: GutendexError, retryAfter: Duration?, retry attempt: Int)
    -> Duration
  {
    if case .rateLimited(let retryAfter?, _) = error, retryAfter <= retry.maxRetryAfter {
      return retryAfter
    }
    if case .serverError(503, _) = error, let retryAfter, retryAfter <= retry.maxRetryAfter {
      return retryAfter
    }
    return retry.delay(beforeRetry: attempt, random: Double.random(in: 0..<1))
  }

  /// Where a redirect may go (``RedirectPolicy/files``): https anywhere, http only on a
  /// loopback host (tests); a move from https to http elsewhere is a downgrade and refused.
  public static func redirectTarget(from current: URL, location: String?) throws(DownloadError)
    -> URL
  {
    switch RedirectPolicy.files.target(from: current, location: location) {
    case .success(let target): return target
    case .failure(let refusal):
      throw .redirectRefused(from: refusal.from, to: refusal.to, reason: refusal.reason)
    }
  }
}
