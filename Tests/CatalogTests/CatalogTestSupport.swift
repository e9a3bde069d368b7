import Foundation
import Gutendex
import Synchronization
import TestSupport
import Testing

@testable import Catalog

/// Real recorded books for the service and view-model tests.
enum CatalogFixtures {
  /// The books of a recording in `Fixtures/`.
  static func books(_ name: String) throws -> [Book] {
    try BookPage.decode(from: FixtureFiles.recording(name)).results
  }

  /// 86 real books (gutendex.com E4 page 1, mirror English page 87, mirror Japanese page 1),
  /// so a catalogue of them has three pages: 32, 32 and 22 books.
  static func catalogue() throws -> [Book] {
    var seen = Set<Int>()
    return try (books("e4-2025-page1") + books("en__page_87") + books("ja__page_1"))
      .filter { seen.insert($0.id).inserted }
  }

  /// Books made in code, numbered from `first`, without summaries.
  static func made(_ count: Int, from first: Int = 900_001) -> [Book] {
    (0..<count).map { index in
      Book(
        id: first + index, title: "Made Book \(index + 1)",
        authors: [Person(name: "Writer, Number \(index + 1)")], languages: ["en"])
    }
  }

  /// A fixed date `seconds` after 2025-06-01T00:00:00Z (whole seconds, as the store keeps).
  static func date(_ seconds: Double = 0) -> Date {
    Date(timeIntervalSince1970: 1_748_736_000 + seconds)
  }
}

/// A Gutendex server in memory: serves `/books/` pages and `/books/<id>/` from a list of books,
/// records every request, and can fail or hold requests on demand.
///
/// Thread-safe: all state lives in one `Mutex`. Held requests wait on continuations that are
/// resumed exactly once, by ``release()`` or by their task's cancellation.
final class FakeGutendex: Requestable {
  /// A way to answer a request other than with the books.
  enum Fault: Sendable, Hashable {
    /// The transport throws ``GutendexError/unreachable(url:reason:)``.
    case unreachable
    /// An HTML error page with this status (5xx, say).
    case status(Int)
    /// 404 `{"detail": "Invalid page."}`, as the real server answers a page past the end.
    case invalidPage
  }

  private typealias Waiter = (
    predicate: @Sendable (URL) -> Bool, continuation: CheckedContinuation<URL, Never>
  )

  private struct Parked {
    var url: URL
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var books: [Book]
    var requests: [URL] = []
    var cancelled: [URL] = []
    var fault: (@Sendable (URL, Int) -> Fault?)?
    var hold: (@Sendable (URL) -> Bool)?
    var parked: [Int: Parked] = [:]
    var cancelledBeforeParking: Set<Int> = []
    var nextTicket = 0
    var waiters: [Waiter] = []
    var cancelWaiters: [Waiter] = []
  }

  private let state: Mutex<State>

  init(books: [Book]) {
    state = Mutex(State(books: books))
  }

  // MARK: - Control

  /// Every request from now on fails with `fault` (nil: serve the books again).
  func fail(with fault: Fault?) {
    let decide: (@Sendable (URL, Int) -> Fault?)? =
      if let fault { { _, _ in fault } } else { nil }
    state.withLock { $0.fault = decide }
  }

  /// Decides per request (its URL and 0-based number) whether it fails, and how.
  func fail(when decide: @escaping @Sendable (URL, Int) -> Fault?) {
    state.withLock { $0.fault = decide }
  }

  /// Requests matching `predicate` wait until ``release()`` or until their task is cancelled.
  func hold(where predicate: @escaping @Sendable (URL) -> Bool) {
    state.withLock { $0.hold = predicate }
  }

  /// Lets every held request go on, and stops holding new ones.
  func release() {
    let parked = state.withLock { state in
      state.hold = nil
      defer { state.parked = [:] }
      return Array(state.parked.values)
    }
    for entry in parked { entry.continuation.resume() }
  }

  /// Waits until a request matching `predicate` has arrived (at once if one already has).
  func waitForRequest(where predicate: @escaping @Sendable (URL) -> Bool) async -> URL {
    await withCheckedContinuation { continuation in
      let found = state.withLock { state -> URL? in
        if let url = state.requests.first(where: predicate) { return url }
        state.waiters.append((predicate, continuation))
        return nil
      }
      if let found { continuation.resume(returning: found) }
    }
  }

  /// Waits until a held request matching `predicate` has been cancelled by its caller.
  func waitForCancellation(where predicate: @escaping @Sendable (URL) -> Bool) async -> URL {
    await withCheckedContinuation { continuation in
      let found = state.withLock { state -> URL? in
        if let url = state.cancelled.first(where: predicate) { return url }
        state.cancelWaiters.append((predicate, continuation))
        return nil
      }
      if let found { continuation.resume(returning: found) }
    }
  }

  /// Waits until a request for page `page` of `/books/` has arrived.
  func waitForPage(_ page: Int) async {
    _ = await waitForRequest { Self.page(of: $0) == page }
  }

  // MARK: - Inspection

  /// Every request received, in order.
  var requests: [URL] { state.withLock { $0.requests } }

  /// Requests whose task was cancelled while they were held.
  var cancelled: [URL] { state.withLock { $0.cancelled } }

  /// The `page` numbers of the `/books/` requests received, in order (1 when absent).
  var pagesRequested: [Int] { requests.compactMap(Self.page(of:)) }

  /// The `ids` parameter of each `/books/` request that had one, as numbers.
  var idBatches: [[Int]] {
    requests.compactMap { url in
      Self.parameter("ids", of: url).map { $0.split(separator: ",").compactMap { Int($0) } }
    }
  }

  /// The `page` of a `/books/` request (1 when absent); nil for other paths.
  static func page(of url: URL) -> Int? {
    guard url.path.hasSuffix("/books/") || url.path.hasSuffix("/books") else { return nil }
    return parameter("page", of: url).flatMap { Int($0) } ?? 1
  }

  static func parameter(_ name: String, of url: URL) -> String? {
    URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
      .first { $0.name == name }?.value
  }

  // MARK: - Requestable

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let url = request.url
    let (ticket, mustHold, fault, books, ready) = state.withLock { state in
      let number = state.requests.count
      state.requests.append(url)
      var ready: [CheckedContinuation<URL, Never>] = []
      state.waiters.removeAll { waiter in
        guard waiter.predicate(url) else { return false }
        ready.append(waiter.continuation)
        return true
      }
      state.nextTicket += 1
      return (
        state.nextTicket, state.hold?(url) ?? false, state.fault?(url, number), state.books, ready
      )
    }
    for continuation in ready { continuation.resume(returning: url) }
    if mustHold { try await park(ticket, url: url) }
    switch fault {
    case .unreachable?:
      throw GutendexError.unreachable(url: url, reason: "connection refused")
    case .status(let status)?:
      return HTTPResponse(
        status: status, headers: ["Content-Type": "text/html"],
        body: Data("<html>down</html>".utf8), url: url)
    case .invalidPage?:
      return Self.json(404, #"{"detail":"Invalid page."}"#, url: url)
    case nil:
      return Self.answer(url, books: books)
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
        state -> (Parked?, [CheckedContinuation<URL, Never>]) in
        state.cancelled.append(url)
        var ready: [CheckedContinuation<URL, Never>] = []
        state.cancelWaiters.removeAll { waiter in
          guard waiter.predicate(url) else { return false }
          ready.append(waiter.continuation)
          return true
        }
        guard let parked = state.parked.removeValue(forKey: ticket) else {
          state.cancelledBeforeParking.insert(ticket)
          return (nil, ready)
        }
        return (parked, ready)
      }
      parked?.continuation.resume(throwing: CancellationError())
      for continuation in ready { continuation.resume(returning: url) }
    }
  }

  // MARK: - Answers

  private static func answer(_ url: URL, books: [Book]) -> HTTPResponse {
    let components = url.path.split(separator: "/")
    if components.count == 2, components[0] == "books", let id = Int(components[1]) {
      guard let book = books.first(where: { $0.id == id }) else {
        return json(404, #"{"detail":"No Book matches the given query."}"#, url: url)
      }
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json"], body: book.rawJSON, url: url)
    }
    var matching = books
    if let ids = parameter("ids", of: url) {
      let wanted = Set(ids.split(separator: ",").compactMap { Int($0) })
      matching = matching.filter { wanted.contains($0.id) }
    }
    if let search = parameter("search", of: url)?.lowercased() {
      matching = matching.filter { $0.title.lowercased().contains(search) }
    }
    let page = parameter("page", of: url).flatMap { Int($0) } ?? 1
    let pageCount = BookQuery.pageCount(forResults: matching.count)
    guard (1...pageCount).contains(page) else {
      return json(404, #"{"detail":"Invalid page."}"#, url: url)
    }
    let slice = matching.dropFirst((page - 1) * BookQuery.pageSize).prefix(BookQuery.pageSize)
    let link = { (number: Int) in "\"http://test.local/books/?page=\(number)\"" }
    var body = Data(#"{"count":\#(matching.count),"#.utf8)
    body += Data(#""next":\#(page < pageCount ? link(page + 1) : "null"),"#.utf8)
    body += Data(#""previous":\#(page > 1 ? link(page - 1) : "null"),"results":["#.utf8)
    for (index, book) in slice.enumerated() {
      if index > 0 { body += Data(",".utf8) }
      body += book.rawJSON
    }
    body += Data("]}".utf8)
    return HTTPResponse(
      status: 200, headers: ["Content-Type": "application/json"], body: body, url: url)
  }

  private static func json(_ status: Int, _ text: String, url: URL) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8),
      url: url)
  }
}

/// A clock the tests move by hand.
final class TestClock: Sendable {
  private let current: Mutex<Date>

  init(_ start: Date = CatalogFixtures.date()) {
    current = Mutex(start)
  }

  var now: Date { current.withLock { $0 } }

  func advance(by seconds: TimeInterval) {
    current.withLock { $0 += seconds }
  }
}

/// A service wired to a ``FakeGutendex``, real SQLite stores in a scratch directory (removed
/// when the harness goes away), an optional local catalogue, and a hand-moved clock.
final class CatalogHarness: Sendable {
  let directory: URL
  let server: FakeGutendex
  let localServer: FakeGutendex?
  let clock: TestClock
  let favorites: FavoritesStore
  let cache: PageCache?
  let service: CatalogService

  /// The name the local catalogue goes by in these tests.
  static let localName = "embedded catalogue of 2025-08"

  /// - Parameters:
  ///   - books: what the fake server serves (default: the 86 fixture books).
  ///   - localBooks: what the local catalogue serves; nil for no local catalogue.
  init(
    books: [Book]? = nil, cache: Bool = true, localBooks: [Book]? = nil,
    mode: CatalogService.Mode = .automatic
  ) throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("catalog-vm-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    server = FakeGutendex(books: try books ?? CatalogFixtures.catalogue())
    clock = TestClock()
    favorites = try FavoritesStore(
      databaseURL: directory.appendingPathComponent("favorites.sqlite"))
    self.cache =
      cache ? try PageCache(databaseURL: directory.appendingPathComponent("pages.sqlite")) : nil
    let localServer = localBooks.map(FakeGutendex.init(books:))
    self.localServer = localServer
    let local = localServer.map { transport in
      LocalCatalogue(name: Self.localName, hasSummaries: false) { transport }
    }
    let client = GutendexClient(
      server: URL(string: "http://test.local")!, transport: server, retry: .none,
      timeout: .seconds(120), sleep: { _ in })
    let clock = self.clock
    service = CatalogService(
      client: client, favorites: favorites, cache: self.cache, local: local, mode: mode,
      now: { clock.now })
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  /// A second store on the same favourites file, as another process would open it.
  func reopenFavorites() throws -> FavoritesStore {
    try FavoritesStore(databaseURL: directory.appendingPathComponent("favorites.sqlite"))
  }
}

/// Collects what an observer is given, for later inspection on the main actor.
@MainActor
final class Delivered<Value: Sendable> {
  var values: [Value] = []

  func append(_ value: Value) {
    values.append(value)
  }
}

/// The `CatalogError` thrown by `body`, or nil (recorded as an issue) if it succeeded.
func catalogError<T>(
  isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async -> CatalogError? {
  do {
    _ = try await body()
    Issue.record("expected a CatalogError, but the call succeeded")
    return nil
  } catch let error as CatalogError {
    return error
  } catch {
    Issue.record("expected a CatalogError, got \(error)")
    return nil
  }
}

/// An injected `sleep` that records what it was asked for and returns only when opened
/// (or throws when its task is cancelled), so delays are tested without any real waiting.
final class SleepGate: Sendable {
  private struct State {
    var requested: [Duration] = []
    var isOpen = false
    var sleepers: [Int: CheckedContinuation<Void, any Error>] = [:]
    var cancelledEarly: Set<Int> = []
    var next = 0
    var arrivals: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())

  /// The durations asked for, in order.
  var requested: [Duration] { state.withLock { $0.requested } }

  /// Lets every sleeper go on, now and from now on.
  func open() {
    let sleepers = state.withLock { state in
      state.isOpen = true
      defer { state.sleepers = [:] }
      return Array(state.sleepers.values)
    }
    for sleeper in sleepers { sleeper.resume() }
  }

  /// Waits until `count` sleeps have been asked for.
  func waitForSleeps(_ count: Int) async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state in
        if state.requested.count >= count { return true }
        state.arrivals.append((count, continuation))
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// The `sleep` to inject.
  var sleep: @Sendable (Duration) async throws -> Void {
    { [self] duration in try await self.wait(duration) }
  }

  private func wait(_ duration: Duration) async throws {
    let (ticket, isOpen, ready) = state.withLock { state in
      state.requested.append(duration)
      state.next += 1
      let count = state.requested.count
      var ready: [CheckedContinuation<Void, Never>] = []
      state.arrivals.removeAll { arrival in
        guard arrival.count <= count else { return false }
        ready.append(arrival.continuation)
        return true
      }
      return (state.next, state.isOpen, ready)
    }
    for continuation in ready { continuation.resume() }
    if isOpen { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let early = state.withLock { state -> Bool in
          if state.cancelledEarly.remove(ticket) != nil || state.isOpen { return true }
          state.sleepers[ticket] = continuation
          return false
        }
        if early {
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
          } else {
            continuation.resume()
          }
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state in
        guard let sleeper = state.sleepers.removeValue(forKey: ticket) else {
          state.cancelledEarly.insert(ticket)
          return nil as CheckedContinuation<Void, any Error>?
        }
        return sleeper
      }
      sleeper?.resume(throwing: CancellationError())
    }
  }
}

/// Resumes once, when an observed state first satisfies a condition.
@MainActor
final class Arrival {
  private var continuation: CheckedContinuation<Void, Never>?
  var token: ObservationToken?

  init(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation = continuation
  }

  var isDone: Bool { continuation == nil }

  func arrive() {
    continuation?.resume()
    continuation = nil
    token = nil
  }
}

/// Waits until `observe` delivers a state for which `condition` holds (at once if it does now).
@MainActor
func waitUntil<State: Sendable>(
  _ observe: (@escaping @MainActor @Sendable (State) -> Void) -> ObservationToken,
  _ condition: @escaping @MainActor @Sendable (State) -> Bool
) async {
  await withCheckedContinuation { continuation in
    let arrival = Arrival(continuation)
    let token = observe { state in
      if condition(state) { arrival.arrive() }
    }
    // Already there: the first delivery resumed it, and the token must go too.
    if arrival.isDone { token.cancel() } else { arrival.token = token }
  }
}
