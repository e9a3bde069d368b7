import Foundation
import Gutendex
import GutendexEngine
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
  /// so a catalogue of them has three pages: 32, 32 and 22 books; in the order the server (the
  /// engine behind ``GutendexDouble``) pages them, most downloaded first.
  static func catalogue() throws -> [Book] {
    var seen = Set<Int>()
    return GutendexDouble.popularOrder(
      try (books("e4-2025-page1") + books("en__page_87") + books("ja__page_1"))
        .filter { seen.insert($0.id).inserted })
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

/// A service wired to a ``GutendexDouble``, real SQLite stores in a scratch directory (removed
/// when the harness goes away), an optional local catalogue, and a hand-moved clock.
final class CatalogHarness: Sendable {
  let directory: URL
  let server: GutendexDouble
  /// How many times the local catalogue was opened: it opens on its first question, so 0
  /// means it was never asked.
  var localCatalogueOpens: Int { localOpens.count.withLock { $0 } }
  private let localOpens = OpenCount()

  /// A count shared with the catalogue's opening closure (a `Mutex` cannot be copied into it).
  private final class OpenCount: Sendable {
    let count = Mutex(0)
  }
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
    server = try GutendexDouble(books: try books ?? CatalogFixtures.catalogue())
    clock = TestClock()
    favorites = try FavoritesStore(
      databaseURL: directory.appendingPathComponent("favorites.sqlite"))
    self.cache =
      cache ? try PageCache(databaseURL: directory.appendingPathComponent("pages.sqlite")) : nil
    let localEngine = try localBooks.map { try GutendexEngine(books: $0.map(\.rawJSON)) }
    let opens = localOpens
    let local = localEngine.map { engine in
      LocalCatalogue(name: Self.localName, hasSummaries: false) {
        opens.count.withLock { $0 += 1 }
        return engine
      }
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

  /// A harness whose server cannot be reached, with a local catalogue of three made-up books
  /// and Frankenstein saved as a favourite a day ago: every fallback of a book has something.
  static func unreachableWithFallbacks() throws -> (
    harness: CatalogHarness, local: [Book], favorite: Book, addedAt: Date
  ) {
    let local = CatalogFixtures.made(3)
    let harness = try CatalogHarness(localBooks: local)
    let frankenstein = try #require(try CatalogFixtures.books("e4-2025-page1").first)
    let addedAt = CatalogFixtures.date(-86_400)
    _ = try harness.favorites.add(frankenstein, at: addedAt)
    harness.server.fail(with: .unreachable)
    return (harness, local, frankenstein, addedAt)
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
    var arrivals: [(count: Int, resume: @Sendable (Bool) -> Void)] = []
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

  /// Waits until `count` sleeps have been asked for; throws an `AwaitTimeout` if they have
  /// not by `Awaiting.standard`.
  func waitForSleeps(_ count: Int, file: String = #fileID, line: Int = #line) async throws {
    _ = try await Awaiting.event("\(count) sleeps to be asked for", file: file, line: line) {
      resume in
      let done = state.withLock { state in
        if state.requested.count >= count { return true }
        state.arrivals.append((count, resume))
        return false
      }
      if done { resume(true) }
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
      var ready: [@Sendable (Bool) -> Void] = []
      state.arrivals.removeAll { arrival in
        guard arrival.count <= count else { return false }
        ready.append(arrival.resume)
        return true
      }
      return (state.next, state.isOpen, ready)
    }
    for resume in ready { resume(true) }
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
  private var resume: (@Sendable (Bool) -> Void)?
  var token: ObservationToken?

  init(_ resume: @escaping @Sendable (Bool) -> Void) {
    self.resume = resume
  }

  var isDone: Bool { resume == nil }

  func arrive() {
    resume?(true)
    resume = nil
    token = nil
  }
}

/// Waits until `observe` delivers a state for which `condition` holds (at once if it does now);
/// throws an `AwaitTimeout` if none has by `Awaiting.standard`.
@MainActor
func waitUntil<State: Sendable>(
  file: String = #fileID, line: Int = #line,
  _ observe: (@escaping @MainActor @Sendable (State) -> Void) -> ObservationToken,
  _ condition: @escaping @MainActor @Sendable (State) -> Bool
) async throws {
  var arrival: Arrival?
  _ = try await Awaiting.event("an observed state to hold", file: file, line: line) { resume in
    let waiting = Arrival(resume)
    let token = observe { state in
      if condition(state) { waiting.arrive() }
    }
    // Already there: the first delivery resumed it, and the token must go too.
    if waiting.isDone { token.cancel() } else { waiting.token = token }
    arrival = waiting
  }
  // Past the deadline the observation is still registered: end it.
  arrival?.token?.cancel()
  arrival?.token = nil
}
