import Foundation
import Gutendex

/// Fetches Project Gutenberg's files the way its robot rules ask: through the client's one
/// pipeline (one User-Agent with the contact URL, every request shown by `--verbose` and
/// `status`), conditionally when the file was read before, and waiting as long as a 429's or
/// 503's `Retry-After` says (up to a limit) before asking again. The pause between per-book
/// records is the caller's, which knows which requests are a series.
struct PoliteFetcher: Sendable {
  /// What a request found.
  enum Answer: Sendable {
    /// 304: the file is as it was when its validators were taken.
    case unchanged
    /// The whole body, the file's validators, and its `Last-Modified` as a date.
    case body(Data, validators: GutenbergState.Validators?, modified: Date?)
    /// 404 or 410: there is no such file (a book PG withdrew, or not yet published).
    case missing(status: Int)
  }

  var pipeline: HTTPPipeline
  var timeout: Duration
  var maxRetryAfter: Duration
  /// How a wait is spent (tests may shorten it; cancellation ends it).
  var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

  /// How many times one file is asked for after a 429 or 503 with `Retry-After`.
  static let retries = 3

  /// GETs `url` (conditional on `validators`), reading at most `limit` bytes of body; counts
  /// every request and byte into `counts`. Throws the network's error, a status that is not
  /// an answer, or a 429 whose wait is too long or that outlasts ``retries``.
  func get(
    _ url: URL, validators: GutenbergState.Validators?, limit: Int, counts: inout SourceCounts
  ) async throws(GutendexError) -> Answer {
    var headers = ["Accept-Encoding": "identity"]
    if let etag = validators?.etag { headers["If-None-Match"] = etag }
    if let modified = validators?.lastModified { headers["If-Modified-Since"] = modified }
    var attempt = 1
    while true {
      let request = HTTPRequest(url: url, headers: headers, timeout: timeout)
      let opened: HTTPPipeline.Opened
      do throws(HTTPPipeline.Failure) {
        opened = try await pipeline.open(request, redirects: .files, attempt: attempt)
      } catch {
        switch error {
        case .transport(let cause, let sent):
          counts.requests += sent
          if cause is CancellationError || Task.isCancelled { throw .cancelled(url: url) }
          throw cause as? GutendexError ?? .unreachable(url: url, reason: "\(cause)")
        case .redirectRefused(let refusal, let sent):
          counts.requests += sent
          throw .redirectRefused(from: refusal.from, to: refusal.to)
        case .tooManyRedirects(let from, let sent):
          counts.requests += sent
          throw .redirectRefused(from: from, to: "more than \(RedirectPolicy.limit) redirects")
        }
      }
      counts.requests += opened.requests
      let response = opened.response
      switch response.status {
      case 200:
        let data: Data
        do {
          data = try await response.body.collect(
            upTo: limit, orThrow: GutendexError.bodyTooLarge(url: opened.url, limit: limit))
        } catch let error as GutendexError {
          throw error
        } catch {
          if Task.isCancelled { throw .cancelled(url: url) }
          throw .connectionLost(url: opened.url, reason: "\(error)")
        }
        counts.bytes += Int64(data.count)
        let lastModified = response.header("Last-Modified")
        return .body(
          data,
          validators: GutenbergState.Validators(
            etag: response.header("ETag"), lastModified: lastModified),
          modified: lastModified.flatMap(TodayRSS.date))
      case 304:
        response.body.cancel()
        return .unchanged
      case 404, 410:
        response.body.cancel()
        return .missing(status: response.status)
      case 429, 503:
        response.body.cancel()
        let wait = GutendexClient.retryAfter(response.header("Retry-After"))
        guard attempt <= Self.retries, let wait, wait <= maxRetryAfter else {
          if response.status == 503, wait == nil {
            throw .serverError(status: 503, url: opened.url)
          }
          throw .rateLimited(retryAfter: wait, url: opened.url)
        }
        do {
          try await sleep(wait)
        } catch {
          throw .cancelled(url: url)
        }
        attempt += 1
      case 500...599:
        response.body.cancel()
        throw .serverError(status: response.status, url: opened.url)
      default:
        response.body.cancel()
        throw .http(status: response.status, detail: nil, url: opened.url)
      }
    }
  }
}
