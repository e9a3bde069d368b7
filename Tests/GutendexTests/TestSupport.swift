import Foundation
import Gutendex
import Synchronization
import TestSupport
import Testing

/// A thread-safe list that injected closures (sleep, observer, random) append to.
final class Recorder<Element: Sendable>: Sendable {
  private let items = Mutex<[Element]>([])

  func append(_ item: Element) {
    items.withLock { $0.append(item) }
  }

  var all: [Element] { items.withLock { $0 } }
}

/// Hands out the given numbers in turn (then the last one again), for repeatable jitter.
final class NumberSource: Sendable {
  private let state: Mutex<(values: [Double], index: Int)>

  init(_ values: [Double]) {
    state = Mutex((values, 0))
  }

  func next() -> Double {
    state.withLock { state in
      let value = state.values[min(state.index, state.values.count - 1)]
      state.index += 1
      return value
    }
  }
}

/// Shared values and builders for the client tests.
enum Fake {
  static let server = URL(string: "https://books.example")!

  /// A client on ``server`` whose sleeps and events are recorded instead of waited for.
  ///
  /// The default deadline is long: a test that cancels a hanging request must not see the
  /// deadline win while it waits for a thread on a loaded machine (15 s did, at load 30).
  /// Tests of the deadline pass their own.
  static func client(
    _ transport: MockTransport, server: URL = Fake.server, retry: RetryPolicy = .standard,
    timeout: Duration = .seconds(600), sleeps: Recorder<Duration> = Recorder(),
    events: Recorder<RequestEvent> = Recorder(), random: NumberSource = NumberSource([0.5]),
    now: Date = Date(timeIntervalSince1970: 1_750_000_000)
  ) -> GutendexClient {
    GutendexClient(
      server: server, transport: transport, retry: retry, timeout: timeout,
      sleep: { sleeps.append($0) }, random: { random.next() }, observer: { events.append($0) },
      now: { now })
  }

  /// A minimal book object.
  static func book(_ id: Int) -> String {
    #"{"id":\#(id),"title":"Book \#(id)","authors":[],"languages":["en"],"download_count":\#(id)}"#
  }

  /// A page body with these book ids and `next` link.
  static func page(count: Int, next: String?, ids: [Int]) -> String {
    let nextJSON = next.map { "\"\($0)\"" } ?? "null"
    let books = ids.map(book).joined(separator: ",")
    return #"{"count":\#(count),"next":\#(nextJSON),"previous":null,"results":[\#(books)]}"#
  }

  /// The query string of a request URL, or "" when it has none.
  static func query(of request: HTTPRequest) -> String {
    URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
  }
}

/// Runs `operation` and returns the ``GutendexError`` it threw, or nil if it succeeded.
///
/// Any other error is recorded as a test failure: the client promises only `GutendexError`.
func caught<T>(_ operation: () async throws -> T) async -> GutendexError? {
  do {
    _ = try await operation()
    return nil
  } catch let error as GutendexError {
    return error
  } catch {
    Issue.record("expected a GutendexError, got \(error)")
    return nil
  }
}

/// The recordings of /work/shared/gutendex, kept once in `TestSupport`.
enum Fixtures {
  static func url(_ name: String) throws -> URL {
    try FixtureFiles.url(name)
  }

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: url(name))
  }

  static func page(_ name: String) throws -> BookPage {
    try BookPage.decode(from: data(name))
  }

  static func book(_ id: Int, in name: String) throws -> Book {
    try #require(page(name).results.first { $0.id == id }, "book \(id) in \(name)")
  }
}
