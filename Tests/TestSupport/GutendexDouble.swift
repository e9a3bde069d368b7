import Foundation
import Gutendex
import GutendexEngine
import Synchronization

/// The one Gutendex double of the test suites: the real `GutendexEngine` over a list of books
/// (so pages, filters, links and errors are the server's own), in memory, recording every
/// request, failing or holding requests on demand.
///
/// Thread-safe: all state lives in one `Mutex`. Held requests wait on continuations that are
/// resumed exactly once, by ``release()`` or by their task's cancellation.
public final class GutendexDouble: Requestable {
  /// A way to answer a request other than with the books.
  public enum Fault: Sendable, Hashable {
    /// The transport throws ``GutendexError/unreachable(url:reason:)``.
    case unreachable
    /// An HTML error page with this status (5xx, say).
    case status(Int)
    /// 404 `{"detail": "Invalid page."}`, as the real server answers a page past the end.
    case invalidPage
    /// 429 with `Retry-After: seconds`, as gutendex.com throttles.
    case rateLimited(seconds: Int)
  }

  private typealias Waiter = (
    predicate: @Sendable (URL) -> Bool, resume: @Sendable (URL) -> Void
  )

  private struct Parked {
    var url: URL
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var requests: [URL] = []
    var cancelled: [URL] = []
    var fault: (@Sendable (URL, Int) -> Fault?)?
    var hold: (@Sendable (URL) -> Bool)?
    var parked: [Int: Parked] = [:]
    var cancelledBeforeParking: Set<Int> = []
    var nextTicket = 0
    var waiters: [Waiter] = []
    var cancelWaiters: [Waiter] = []
    var scripted: [(predicate: @Sendable (URL) -> Bool, body: Data)] = []
  }

  private let state = Mutex(State())
  private let engine: GutendexEngine

  /// A server of `books`, in the engine's order (most downloaded first, as gutendex.com).
  public init(books: [Book]) throws {
    engine = try GutendexEngine(books: books.map(\.rawJSON))
  }

  /// The order the engine pages `books` in by default: most downloaded first, then by id.
  public static func popularOrder(_ books: [Book]) -> [Book] {
    books.sorted { ($0.downloadCount, -$0.id) > ($1.downloadCount, -$1.id) }
  }

  // MARK: - Control

  /// Every request from now on fails with `fault` (nil: serve the books again).
  public func fail(with fault: Fault?) {
    let decide: (@Sendable (URL, Int) -> Fault?)? =
      if let fault { { _, _ in fault } } else { nil }
    state.withLock { $0.fault = decide }
  }

  /// Decides per request (its URL and 0-based number) whether it fails, and how.
  public func fail(when decide: @escaping @Sendable (URL, Int) -> Fault?) {
    state.withLock { $0.fault = decide }
  }

  /// Requests matching `predicate` are answered 200 with `body` instead of by the engine: a
  /// page the engine cannot produce (a book repeated across pages, as when the popularity
  /// order shifts between requests).
  public func answer(where predicate: @escaping @Sendable (URL) -> Bool, with body: Data) {
    state.withLock { $0.scripted.append((predicate, body)) }
  }

  /// Requests matching `predicate` wait until ``release()`` or until their task is cancelled.
  public func hold(where predicate: @escaping @Sendable (URL) -> Bool) {
    state.withLock { $0.hold = predicate }
  }

  /// Lets every held request go on, and stops holding new ones.
  public func release() {
    let parked = state.withLock { state in
      state.hold = nil
      defer { state.parked = [:] }
      return Array(state.parked.values)
    }
    for entry in parked { entry.continuation.resume() }
  }

  /// Waits until a request matching `predicate` has arrived (at once if one already has);
  /// throws an ``AwaitTimeout`` if none has by ``Awaiting/standard``.
  public func waitForRequest(
    file: String = #fileID, line: Int = #line,
    where predicate: @escaping @Sendable (URL) -> Bool
  ) async throws -> URL {
    try await Awaiting.event("a request to the fake server", file: file, line: line) { resume in
      let found = state.withLock { state -> URL? in
        if let url = state.requests.first(where: predicate) { return url }
        state.waiters.append((predicate, resume))
        return nil
      }
      if let found { resume(found) }
    }
  }

  /// Waits until a held request matching `predicate` has been cancelled by its caller; throws
  /// an ``AwaitTimeout`` if none has by ``Awaiting/standard``.
  public func waitForCancellation(
    file: String = #fileID, line: Int = #line,
    where predicate: @escaping @Sendable (URL) -> Bool
  ) async throws -> URL {
    try await Awaiting.event(
      "a held request to be cancelled by its caller", file: file, line: line
    ) { resume in
      let found = state.withLock { state -> URL? in
        if let url = state.cancelled.first(where: predicate) { return url }
        state.cancelWaiters.append((predicate, resume))
        return nil
      }
      if let found { resume(found) }
    }
  }

  /// Waits until a request for page `page` of `/books/` has arrived.
  public func waitForPage(_ page: Int, file: String = #fileID, line: Int = #line) async throws {
    _ = try await Awaiting.event(
      "a request for page \(page) to reach the fake server", file: file, line: line
    ) { resume in
      let found = state.withLock { state -> URL? in
        if let url = state.requests.first(where: { Self.page(of: $0) == page }) { return url }
        state.waiters.append(({ Self.page(of: $0) == page }, resume))
        return nil
      }
      if let found { resume(found) }
    }
  }

  // MARK: - Inspection

  /// Every request received, in order.
  public var requests: [URL] { state.withLock { $0.requests } }

  /// Requests whose task was cancelled while they were held.
  public var cancelled: [URL] { state.withLock { $0.cancelled } }

  /// The `page` numbers of the `/books/` requests received, in order (1 when absent).
  public var pagesRequested: [Int] { requests.compactMap(Self.page(of:)) }

  /// The `ids` parameter of each `/books/` request that had one, as numbers.
  public var idBatches: [[Int]] {
    requests.compactMap { url in
      Self.parameter("ids", of: url).map { $0.split(separator: ",").compactMap { Int($0) } }
    }
  }

  /// The `page` of a `/books/` request (1 when absent); nil for other paths.
  public static func page(of url: URL) -> Int? {
    guard url.path.hasSuffix("/books/") || url.path.hasSuffix("/books") else { return nil }
    return parameter("page", of: url).flatMap { Int($0) } ?? 1
  }

  /// The value of query parameter `name` in `url`, if any.
  public static func parameter(_ name: String, of url: URL) -> String? {
    URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
      .first { $0.name == name }?.value
  }

  // MARK: - Requestable

  /// The error the production transport throws for a refused connection, named for `url`.
  static func refusal(for url: URL) async -> GutendexError {
    let refused = URL(string: "http://127.0.0.1:1/")!
    let outcome: Result<HTTPResponse, any Error>
    do {
      outcome = .success(
        try await CurlTransport().send(HTTPRequest(url: refused, timeout: .seconds(5))))
    } catch {
      outcome = .failure(error)
    }
    switch outcome {
    case .failure(GutendexError.unreachable(_, let reason)):
      return .unreachable(url: url, reason: reason)
    case .failure(let error as GutendexError):
      return error
    case .failure(let error):
      return .unreachable(url: url, reason: "\(error)")
    case .success:
      return .unreachable(url: url, reason: "port 1 of this machine answered")
    }
  }

  /// Records the request, then holds, fails, scripts or lets the engine answer it.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let url = request.url
    let (ticket, mustHold, fault, scripted, ready) = state.withLock { state in
      let number = state.requests.count
      state.requests.append(url)
      var ready: [@Sendable (URL) -> Void] = []
      state.waiters.removeAll { waiter in
        guard waiter.predicate(url) else { return false }
        ready.append(waiter.resume)
        return true
      }
      state.nextTicket += 1
      let scripted = state.scripted.first { $0.predicate(url) }?.body
      return (
        state.nextTicket, state.hold?(url) ?? false, state.fault?(url, number), scripted, ready
      )
    }
    for resume in ready { resume(url) }
    if mustHold { try await park(ticket, url: url) }
    switch fault {
    case .unreachable?:
      // What the real transport says of a refused connection, from a real refused connection
      // (port 1 on loopback), for this URL: a hand-written reason here would let the captures
      // disagree with the binary.
      throw await Self.refusal(for: url)
    case .status(let status)?:
      return HTTPResponse(
        status: status, headers: ["Content-Type": "text/html"],
        body: Data("<html>down</html>".utf8), url: url)
    case .invalidPage?:
      return Self.json(404, #"{"detail":"Invalid page."}"#, url: url)
    case .rateLimited(let seconds)?:
      var response = Self.json(429, #"{"detail":"Request was throttled."}"#, url: url)
      response.headers["retry-after"] = "\(seconds)"
      return response
    case nil:
      if let scripted {
        return HTTPResponse(
          status: 200, headers: ["Content-Type": "application/json"], body: scripted, url: url)
      }
      return try await engine.send(request)
    }
  }

  private func park(_ ticket: Int, url: URL) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let cancelledAlready = state.withLock { state in
          if state.cancelledBeforeParking.remove(ticket) != nil { return true }
          state.parked[ticket] = Parked(url: url, continuation: continuation)
          return false
        }
        if cancelledAlready { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let (parked, ready) = state.withLock {
        state -> (Parked?, [@Sendable (URL) -> Void]) in
        state.cancelled.append(url)
        var ready: [@Sendable (URL) -> Void] = []
        state.cancelWaiters.removeAll { waiter in
          guard waiter.predicate(url) else { return false }
          ready.append(waiter.resume)
          return true
        }
        guard let parked = state.parked.removeValue(forKey: ticket) else {
          state.cancelledBeforeParking.insert(ticket)
          return (nil, ready)
        }
        return (parked, ready)
      }
      parked?.continuation.resume(throwing: CancellationError())
      for resume in ready { resume(url) }
    }
  }

  // MARK: - Answers

  private static func json(_ status: Int, _ text: String, url: URL) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8),
      url: url)
  }
}
