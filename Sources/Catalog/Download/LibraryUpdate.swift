import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `library update` for one downloaded file: asks its mirror, with a conditional GET, whether
/// the file changed since it was fetched, and replaces it only when it did.
///
/// The condition is the stored `ETag` (`If-None-Match`), else the stored `Last-Modified`
/// (`If-Modified-Since`); a row recorded before both were kept is asked by its one validator
/// (an ETag when quoted, else a date), and a row with none by its file's modification time
/// (`If-Modified-Since`). A server that ignores the condition and sends the file anyway is
/// caught by comparing the bytes with the old file's before anything is renamed: the same
/// bytes are "unchanged", the file is not touched, and its row gets the validators learnt.
///
/// A changed file is downloaded to `<name>.part` and renamed over the old one once complete,
/// of the announced length and synced (``Downloader/refresh(from:to:condition:markPublished:expecting:progress:)``),
/// so a cut connection, a damaged answer or Ctrl-C leaves the old file whole.
struct LibraryUpdate: Sendable {
  typealias Comparison = LibraryUpdateOutcome.Comparison

  let service: CatalogService

  func run(
    _ request: LibraryUpdateRequest, events: @escaping @Sendable (DownloadEvent) -> Void
  ) async throws(LibraryUpdateFailure) -> LibraryUpdateOutcome {
    let entry = request.entry
    let source = await self.source(of: entry)
    let destination = URL(fileURLWithPath: entry.path)
    guard service.network.current != .simulatedOffline else {
      throw LibraryUpdateFailure(error: .needsNetwork("updating book \(entry.id)"))
    }
    let condition = Self.condition(for: entry)
    let sources: [DownloadMirror?] = request.mirrors.isEmpty ? [nil] : request.mirrors
    var failures: [(mirror: DownloadMirror, reason: String)] = []
    for (index, mirror) in sources.enumerated() {
      let url = mirror?.rewrite(source.url) ?? source.url
      do throws(CatalogError) {
        return try await attempt(
          request, url: url, expected: source.expected, condition: condition,
          destination: destination, events: events)
      } catch {
        if let mirror, index + 1 < sources.count, let reason = DownloadPlanRun.switchReason(error) {
          failures.append((mirror, reason))
          continue
        }
        if let mirror, !failures.isEmpty {
          failures.append((mirror, DownloadPlanRun.switchReason(error) ?? error.description))
        }
        throw LibraryUpdateFailure(error: error, mirrorFailures: failures)
      }
    }
    throw LibraryUpdateFailure(error: .unexpected("no mirror to ask"))
  }

  /// One mirror's answer, under the file's download lock (a `get` of the same file waits).
  private func attempt(
    _ request: LibraryUpdateRequest, url: URL, expected: ExpectedContent,
    condition: Comparison, destination: URL,
    events: @escaping @Sendable (DownloadEvent) -> Void
  ) async throws(CatalogError) -> LibraryUpdateOutcome {
    let entry = request.entry
    let pipeline = HTTPPipeline(
      transport: PacedTransport(base: service.client.pipeline.transport, pacer: request.pacer),
      observer: service.client.pipeline.observer
    ).observed(by: request.observer)
    if request.dryRun {
      let changed = try await Self.probe(
        url, condition: condition.request, pipeline: pipeline,
        maxRetryAfter: request.maxRetryAfter, timeout: request.stallTimeout)
      return LibraryUpdateOutcome(
        kind: changed ? .wouldUpdate : .unchanged, before: entry, after: entry,
        comparedBy: condition)
    }
    let lock = try await LibraryDownload.lock(destination, events: events)
    defer { lock.release() }
    let present = DownloadFile.kind(entry.path) != .absent
    let downloader = Downloader(
      pipeline: pipeline,
      retry: RetryPolicy(maxAttempts: 4, maxRetryAfter: request.maxRetryAfter),
      stallTimeout: request.stallTimeout, minimumSpeed: request.minimumSpeed)
    let answer: Downloader.Refreshed
    do {
      // A file gone from its place is fetched again without a condition.
      answer = try await downloader.refresh(
        from: url, to: destination, condition: present ? condition.request : ConditionalRequest(),
        markPublished: true, expecting: expected
      ) { events(.progress($0)) }
    } catch {
      throw .download(error)
    }
    let result: DownloadResult
    let kind: LibraryUpdateOutcome.Kind
    switch answer {
    case .unchanged:
      return LibraryUpdateOutcome(
        kind: .unchanged, before: entry, after: entry, comparedBy: condition)
    case .sameBytes(let sent):
      // The file is untouched; its row learns the validators, so the next check is a 304.
      (result, kind) = (sent, .sameBytes)
    case .replaced(let sent):
      (result, kind) = (sent, .updated)
    }
    var recorded = entry
    recorded.size = result.size
    recorded.validator = result.validator
    recorded.etag = result.etag
    recorded.lastModified = result.lastModified
    recorded.url = url.redacted
    if kind == .updated { recorded.fetchedAt = service.now() }
    // When this fails after a rename, the file's published mark stays, so the next `get`
    // adopts the new file.
    try await service.recordDownload(recorded)
    if kind == .updated { Downloader.confirmRecorded(destination) }
    return LibraryUpdateOutcome(
      kind: kind, before: entry, after: recorded, comparedBy: present ? condition : .missingFile)
  }

  /// Where the file comes from: the book's own URL for the row's format (so a mirror named
  /// now rewrites it), else the URL the row recorded.
  private func source(of entry: LibraryEntry) async -> (url: URL, expected: ExpectedContent) {
    if let format = BookFormat(argument: entry.format),
      let book = try? await service.book(id: entry.id).book,
      let choice = format.pick(from: book.formats)
    {
      return (choice.url, ExpectedContent(mimeType: choice.mimeType))
    }
    let url = URL(string: entry.url) ?? URL(fileURLWithPath: entry.path)
    return (url, .any)
  }

  /// How a file's copy is compared with the server's.
  static func condition(for entry: LibraryEntry) -> Comparison {
    if let etag = entry.etag { return .etag(etag) }
    if let date = entry.lastModified { return .lastModified(date) }
    if let validator = entry.validator {
      // Rows from before v7: the one validator, an ETag when quoted (`"…"`, `W/"…"`).
      if validator.hasPrefix("\"") || validator.hasPrefix("W/") { return .etag(validator) }
      return .lastModified(validator)
    }
    var info = stat()
    guard stat(entry.path, &info) == 0 else { return .missingFile }
    return .fileTime(Self.httpDate(Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))))
  }

  /// `date` as an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  /// Whether the server's file differs from the copy `condition` describes: one conditional
  /// request whose body is not read (`--dry-run`), waiting out a 429's or 503's `Retry-After`
  /// (up to `maxRetryAfter`, three times).
  static func probe(
    _ url: URL, condition: ConditionalRequest, pipeline: HTTPPipeline, maxRetryAfter: Duration,
    timeout: Duration
  ) async throws(CatalogError) -> Bool {
    var headers = ["Accept-Encoding": "identity"]
    headers.merge(condition.headers) { _, new in new }
    var attempt = 1
    while true {
      let opened: HTTPPipeline.Opened
      do throws(HTTPPipeline.Failure) {
        opened = try await pipeline.open(
          HTTPRequest(url: url, headers: headers, timeout: timeout), redirects: .files,
          attempt: attempt)
      } catch {
        switch error {
        case .transport(let cause, _):
          if cause is CancellationError || Task.isCancelled { throw .cancelled }
          throw .server(cause as? GutendexError ?? .unreachable(url: url, reason: "\(cause)"))
        case .redirectRefused(let refusal, _):
          throw .download(
            .redirectRefused(from: refusal.from, to: refusal.to, reason: refusal.reason))
        case .tooManyRedirects(let from, _):
          throw .download(.tooManyRedirects(url: from))
        }
      }
      let response = opened.response
      response.body.cancel()
      switch response.status {
      case 200: return true
      case 304: return false
      case 429, 503:
        let wait = GutendexClient.retryAfter(response.header("Retry-After"))
        guard attempt <= 3, let wait, wait <= maxRetryAfter else {
          throw .server(
            response.status == 429
              ? .rateLimited(retryAfter: wait, url: opened.url)
              : .serverError(status: 503, url: opened.url))
        }
        do {
          try await Task.sleep(for: wait)
        } catch {
          throw .cancelled
        }
        attempt += 1
      case 500...599:
        throw .server(.serverError(status: response.status, url: opened.url))
      default:
        throw .server(
          .http(
            status: response.status,
            detail: response.status == 404 ? "no such file on the server" : nil, url: opened.url))
      }
    }
  }
}
