import Foundation

/// The one path every request of the program takes, API pages, book files and Project
/// Gutenberg's feed alike: one transport, one User-Agent, one redirect rule per kind of
/// resource (``RedirectPolicy``), and one observer told about every attempt and every hop, so
/// `--verbose` and `status`'s recent requests show them all.
///
/// Retries belong to the caller, which knows what may be sent again: the API client retries a
/// page (``RetryPolicy``), the downloader resumes a file with `Range`, the feed is one
/// conditional request.
public struct HTTPPipeline: Sendable {
  /// The User-Agent of every request: the program and where it comes from, as Project
  /// Gutenberg's robot rules ask.
  public static let userAgent = "gutenberg/1.0 (+https://github.com/gutenberg-cli/gutenberg)"

  /// How requests are sent (libcurl in production, the engine offline, doubles in tests).
  public let transport: any Requestable
  /// Told about every attempt and redirect hop: URL, status or error, duration.
  public var observer: (@Sendable (RequestEvent) -> Void)?

  /// A pipeline over `transport`, reporting to `observer`.
  public init(
    transport: any Requestable = CurlTransport(),
    observer: (@Sendable (RequestEvent) -> Void)? = nil
  ) {
    self.transport = transport
    self.observer = observer
  }

  /// This pipeline with `extra` told about every event too (after the current observer).
  public func observed(by extra: (@Sendable (RequestEvent) -> Void)?) -> HTTPPipeline {
    guard let extra else { return self }
    var copy = self
    let previous = observer
    copy.observer = { event in
      previous?(event)
      extra(event)
    }
    return copy
  }

  /// Tells the observer about one attempt.
  public func report(_ event: RequestEvent) {
    observer?(event)
  }

  /// The answer of one request once redirects are followed: its head (the body streams), the
  /// URL that gave it, and how many requests it took.
  public struct Opened: Sendable {
    /// The last hop's answer; its body is the caller's to read or cancel.
    public var response: StreamedResponse
    /// The URL that answered.
    public var url: URL
    /// Requests sent, redirects included.
    public var requests: Int
  }

  /// Why ``open(_:redirects:attempt:)`` failed: the transport's error, a refused redirect, or
  /// too many of them; and how many requests were sent.
  public enum Failure: Error, Sendable {
    case transport(any Error, requests: Int)
    case redirectRefused(RedirectPolicy.Refusal, requests: Int)
    case tooManyRedirects(url: URL, requests: Int)
  }

  /// Sends `request` (its User-Agent set to ours when it has none) and follows redirects by
  /// `policy`, up to ``RedirectPolicy/limit``; each hop is reported when its head arrives (or
  /// it fails). A 304 is an answer, not a redirect.
  public func open(_ request: HTTPRequest, redirects policy: RedirectPolicy, attempt: Int = 1)
    async throws(Failure) -> Opened
  {
    var current = request
    if !current.headers.keys.contains(where: { $0.lowercased() == "user-agent" }) {
      current.headers["User-Agent"] = Self.userAgent
    }
    var requests = 0
    while true {
      requests += 1
      let started = ContinuousClock.now
      let response: StreamedResponse
      do {
        response = try await transport.open(current)
      } catch {
        report(
          RequestEvent(
            method: current.method, url: current.url, status: nil,
            error: error as? GutendexError ?? GutendexClient.classify(error, url: current.url),
            duration: ContinuousClock.now - started, attempt: attempt))
        throw .transport(error, requests: requests)
      }
      report(
        RequestEvent(
          method: current.method, url: current.url, status: response.status, error: nil,
          duration: ContinuousClock.now - started, attempt: attempt))
      guard [301, 302, 303, 307, 308].contains(response.status) else {
        return Opened(response: response, url: current.url, requests: requests)
      }
      response.body.cancel()
      guard requests <= RedirectPolicy.limit else {
        throw .tooManyRedirects(url: request.url, requests: requests)
      }
      switch policy.target(from: current.url, location: response.header("Location")) {
      case .success(let next): current.url = next
      case .failure(let refusal): throw .redirectRefused(refusal, requests: requests)
      }
    }
  }
}
