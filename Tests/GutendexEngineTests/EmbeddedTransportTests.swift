import Foundation
import Gutendex
import Synchronization
import Testing

@testable import GutendexEngine

@Suite("Embedded transport")
struct EmbeddedTransportTests {
  /// The precomputed first page must be the engine's own answer, headers and bytes; when the
  /// snapshot changes, regenerate it (see Resources/README.md).
  @Test(arguments: ["GET", "HEAD"])
  func firstPageCopyEqualsTheEngine(method: String) async throws {
    let engine = try embedded.get()
    let request = HTTPRequest(
      method: method, url: try #require(URL(string: EmbeddedTransport.firstPageURL)),
      headers: ["Accept": "application/json", "Origin": "http://example.test"])
    let copy = try #require(EmbeddedTransport.firstPage(for: request))
    let live = engine.respond(to: request)
    #expect(copy.status == live.status)
    #expect(copy.headers == live.headers)
    #expect(copy.body == live.body)
    #expect(copy.url == live.url)
  }

  @Test func firstPageDoesNotLoadTheSnapshot() async throws {
    let loads = LoadCounter()
    let transport = EmbeddedTransport(load: {
      loads.increment()
      return try embedded.get()
    })
    let client = GutendexClient(
      server: try #require(URL(string: "http://localhost")), transport: transport, retry: .none)
    let first = try await client.page(BookQuery())
    #expect(first.results.count == 32)
    #expect(first.count == 76_696)
    #expect(loads.value == 0)
    #expect(!transport.isLoaded)
    let second = try await client.page(BookQuery(page: 2))
    #expect(second.results.count == 32)
    #expect(Set(second.results.map(\.id)).isDisjoint(with: first.results.map(\.id)))
    _ = try await client.page(BookQuery(search: "dickens"))
    #expect(loads.value == 1)
    #expect(transport.isLoaded)
  }

  @Test(arguments: [
    "http://localhost/books/?page=1", "http://localhost/books/?sort=ascending",
    "http://127.0.0.1/books/", "http://localhost/books",
  ])
  func otherRequestsGoToTheEngine(url: String) throws {
    let request = HTTPRequest(url: try #require(URL(string: url)))
    #expect(EmbeddedTransport.firstPage(for: request) == nil)
  }

  @Test func otherHostsAndAcceptHeadersGoToTheEngine() throws {
    let url = try #require(URL(string: EmbeddedTransport.firstPageURL))
    #expect(EmbeddedTransport.firstPage(for: HTTPRequest(url: url, headers: ["Host": "x"])) == nil)
    #expect(
      EmbeddedTransport.firstPage(for: HTTPRequest(url: url, headers: ["Accept": "text/html"]))
        == nil)
    #expect(EmbeddedTransport.firstPage(for: HTTPRequest(method: "POST", url: url)) == nil)
  }
}

/// Counts snapshot loads from a `@Sendable` closure.
final class LoadCounter: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
