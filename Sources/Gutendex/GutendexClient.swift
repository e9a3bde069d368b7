import Foundation

/// The client for a Gutendex server: builds URLs, sends typed endpoints through a transport,
/// retries what is worth retrying, refuses what is unsafe, and decodes the answers.
public struct GutendexClient: Sendable {
  /// The public Gutendex instance.
  public static let defaultServer = URL(string: "https://gutendex.com")!

  /// The server's base URL; may carry a path prefix (`https://example.org/gutendex`).
  public let server: URL
  /// How requests are sent (libcurl in production, the engine offline, mocks in tests).
  public let transport: any Requestable
  /// Which failures are retried, and how often.
  public var retry: RetryPolicy
  /// How long one attempt may take before it fails as timed out.
  public var timeout: Duration
  /// The largest body accepted: a larger one is refused as soon as it is known to be larger.
  public var maxBodySize: Int
  /// The pause between retries; injectable so tests run instantly.
  public var sleep: @Sendable (Duration) async throws -> Void
  /// A random number in 0..<1 for retry jitter; injectable for repeatable tests.
  public var random: @Sendable () -> Double
  /// Told about every attempt: URL, status or error, duration.
  public var observer: (@Sendable (RequestEvent) -> Void)?
  /// The current time, for `Retry-After` given as an HTTP date; injectable for tests.
  public var now: @Sendable () -> Date

  /// Redirects followed at most, all on the server's own host.
  static let maxRedirects = RedirectPolicy.limit

  /// A client for the Gutendex API at `server`.
  public init(
    server: URL = GutendexClient.defaultServer,
    transport: any Requestable = CurlTransport(),
    retry: RetryPolicy = .standard,
    timeout: Duration = .seconds(15),
    maxBodySize: Int = CurlTransport.defaultMaxBodySize,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    observer: (@Sendable (RequestEvent) -> Void)? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.server = server
    self.transport = transport
    self.retry = retry
    self.timeout = timeout
    self.maxBodySize = maxBodySize
    self.sleep = sleep
    self.random = random
    self.observer = observer
    self.now = now
  }

  /// The path every request takes (the same transport and observer): book files and Project
  /// Gutenberg's feed go through it too, so each of their requests is reported like a page's.
  public var pipeline: HTTPPipeline {
    HTTPPipeline(transport: transport, observer: observer)
  }

  /// One page of books.
  public func page(_ query: BookQuery) async throws(GutendexError) -> BookPage {
    try await send(.books(query))
  }

  /// One book by its Project Gutenberg number.
  public func book(id: Int) async throws(GutendexError) -> Book {
    try await send(.book(id: id))
  }

  /// Every page of a query, following the server's `next` links.
  public func pages(_ query: BookQuery) -> BookPages {
    BookPages(client: self, query: query)
  }

  /// Every book of a query, page after page, each id once.
  public func books(_ query: BookQuery) -> BookStream {
    BookStream(pages: pages(query))
  }

  /// The absolute URL an endpoint goes to on this client's server.
  public func url(for target: Endpoint<some Sendable>.Target) throws(GutendexError) -> URL {
    let path: String
    let query: String
    switch target {
    case .path(let relative, let relativeQuery):
      path = relative
      query = relativeQuery
    case .link(let link):
      // Recorded `next` links point at gutendex.com, mirrors, or plain http: keep their query
      // as the opaque cursor it is, and send it to the server this client is configured for.
      guard let components = URLComponents(string: link) else {
        throw .invalidRequest(reason: "the server sent a link that is not a URL: \(link)")
      }
      path = "books/"
      query = components.percentEncodedQuery ?? ""
    }
    var base = server.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    let text = base + "/" + path + (query.isEmpty ? "" : "?" + query)
    guard let url = URL(string: text), url.host != nil else {
      throw .invalidRequest(reason: "not a usable server URL: \(server.redacted)")
    }
    return url
  }

  /// Sends an endpoint and decodes its answer, retrying transient failures per ``retry``.
  public func send<Response>(_ endpoint: Endpoint<Response>) async throws(GutendexError)
    -> Response
  {
    let url = try url(for: endpoint.target)
    var attempt = 1
    while true {
      do throws(GutendexError) {
        let response = try await fetch(url, attempt: attempt)
        do throws(BookDecodingError) {
          return try endpoint.decode(response.body)
        } catch {
          throw GutendexError.badData(url: response.url, path: error.path, reason: error.reason)
        }
      } catch {
        guard error.isTransient, attempt < retry.maxAttempts else { throw error }
        var delay = retry.delay(beforeRetry: attempt, random: random())
        if case .rateLimited(let retryAfter?, _) = error {
          guard retryAfter <= retry.maxRetryAfter else { throw error }
          delay = max(retryAfter, .zero)
        }
        do {
          try await sleep(delay)
        } catch {
          throw .cancelled(url: url)
        }
        attempt += 1
      }
    }
  }

  /// One attempt: sends, follows same-host redirects, and turns the status into a result.
  func fetch(_ url: URL, attempt: Int) async throws(GutendexError) -> HTTPResponse {
    var current = url
    var lastRedirect = 0
    for _ in 0...Self.maxRedirects {
      var response = try await exchange(current, attempt: attempt)
      switch response.status {
      case 200..<300:
        // A missing or empty Content-Type is tolerated (some proxies drop it); anything else
        // that is not JSON (an HTML captive portal, say) must not reach the decoder.
        if let type = response.mediaType, !type.isEmpty,
          !(type == "application/json" || type.hasSuffix("+json"))
        {
          throw .badData(url: current, path: "", reason: "expected JSON, got \(type)")
        }
        // Errors about the body name the URL this client asked for, whatever the transport says.
        response.url = current
        return response
      case 301, 302, 303, 307, 308:
        guard let location = response.header("location") else {
          throw .http(status: response.status, detail: "redirect without a Location", url: current)
        }
        switch RedirectPolicy.sameOrigin.target(from: current, location: location) {
        case .success(let target): current = target
        case .failure(let refusal): throw .redirectRefused(from: current, to: refusal.to)
        }
        lastRedirect = response.status
      case 407:
        // The proxy's answer, not the server's: the server was never reached.
        throw .unreachable(url: current, reason: CurlFailure.proxyLogin)
      case 429:
        throw .rateLimited(
          retryAfter: Self.retryAfter(response.header("retry-after"), now: now()), url: current)
      case 500...:
        throw .serverError(status: response.status, url: current)
      default:
        throw .http(status: response.status, detail: Self.detail(of: response), url: current)
      }
    }
    throw .http(
      status: lastRedirect, detail: "too many redirects (more than \(Self.maxRedirects))",
      url: current)
  }

  /// Sends one request through the transport, bounded by ``timeout`` whatever the transport does.
  func exchange(_ url: URL, attempt: Int) async throws(GutendexError) -> HTTPResponse {
    let request = HTTPRequest(
      url: url,
      headers: ["Accept": "application/json", "User-Agent": HTTPPipeline.userAgent],
      timeout: timeout)
    let clock = ContinuousClock()
    let start = clock.now
    let result: Result<HTTPResponse, GutendexError>
    if Task.isCancelled {
      result = .failure(.cancelled(url: url))
    } else {
      switch await TransportRace.run(
        request, through: transport, timeout: timeout, limit: maxBodySize)
      {
      case .response(let response):
        result = Task.isCancelled ? .failure(.cancelled(url: url)) : .success(response)
      case .failed(let error):
        result = .failure(
          Task.isCancelled ? .cancelled(url: url) : Self.classify(error, url: url, timeout: timeout)
        )
      case .timedOut:
        result = .failure(.timedOut(url: url, after: timeout))
      case .cancelled:
        result = .failure(.cancelled(url: url))
      }
    }
    observer?(
      RequestEvent(
        url: url, status: try? result.get().status, error: result.failureValue,
        duration: clock.now - start, attempt: attempt))
    return try result.get()
  }

  /// Same scheme, host and port, an explicit default port (`:443` for https) counting as none.
  static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
    a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
      && effectivePort(a) == effectivePort(b)
  }

  private static func effectivePort(_ url: URL) -> Int? {
    if let port = url.port { return port }
    switch url.scheme?.lowercased() {
    case "https": return 443
    case "http": return 80
    default: return nil
    }
  }

  /// The `detail` of a DRF error body (`{"detail": "Invalid page."}`), if the body is one.
  static func detail(of response: HTTPResponse) -> String? {
    guard response.mediaType?.hasSuffix("json") ?? true,
      let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
      let detail = object["detail"] as? String
    else { return nil }
    return detail
  }

  /// `Retry-After` as delay-seconds or as an HTTP date (IMF-fixdate, RFC 850 or asctime),
  /// relative to `now`; a date in the past means no wait. Nil when absent or unreadable.
  package static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
      return nil
    }
    if value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) {
      // delay-seconds is 1*DIGIT; a value too long for Int is "a very long time".
      return .seconds(Int(value) ?? Int.max)
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in [
      "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ] {
      formatter.dateFormat = format
      if let date = formatter.date(from: value) {
        let seconds = date.timeIntervalSince(now).rounded(.up)
        return .seconds(seconds > 0 ? Int(min(seconds, Double(Int32.max))) : 0)
      }
    }
    return nil
  }

  /// Maps a transport's own error (a URLError, say) onto ``GutendexError``.
  static func classify(_ error: any Error, url: URL, timeout: Duration = .zero) -> GutendexError {
    if let error = error as? GutendexError { return error }
    if error is CancellationError { return .cancelled(url: url) }
    if let error = error as? URLError {
      switch error.code {
      case .cancelled: return .cancelled(url: url)
      case .timedOut: return .timedOut(url: url, after: timeout)
      case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
        .unsupportedURL, .badURL, .secureConnectionFailed:
        return .unreachable(url: url, reason: unreachableReason(error))
      default:
        return .connectionLost(url: url, reason: error.localizedDescription)
      }
    }
    return .connectionLost(url: url, reason: String(describing: error))
  }

  /// Why a host could not be reached, in the same few words on every platform. On Linux the
  /// URLError's own text is libcurl's error buffer ("Failed to connect to gutendex.com port 443
  /// after 12 ms: Couldn't connect to server"): it repeats the host the message already names
  /// and carries a timing, so the same failure never read the same twice.
  public static func unreachableReason(_ error: URLError) -> String {
    switch error.code {
    case .cannotConnectToHost: GutendexError.couldNotConnect
    case .cannotFindHost, .dnsLookupFailed: "host not found"
    case .notConnectedToInternet: GutendexError.noNetwork
    case .secureConnectionFailed: "secure connection failed"
    default: error.localizedDescription
    }
  }
}

extension Result {
  var failureValue: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
