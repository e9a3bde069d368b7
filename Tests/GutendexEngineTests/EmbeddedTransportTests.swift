import Foundation
import Gutendex
import Synchronization
import Testing

@testable import GutendexEngine

@Suite("Embedded transport")
struct EmbeddedTransportTests {
  @Test func opensTheCatalogueOnceOnTheFirstRequest() async throws {
    let loads = LoadCounter()
    let transport = EmbeddedTransport(load: {
      loads.increment()
      return try embedded.get()
    })
    #expect(!transport.isLoaded)
    let client = GutendexClient(
      server: try #require(URL(string: "http://localhost")), transport: transport, retry: .none)
    let first = try await client.page(BookQuery())
    #expect(first.results.count == 32)
    #expect(first.count == 76_696)
    #expect(loads.value == 1)
    #expect(transport.isLoaded)
    let second = try await client.page(BookQuery(page: 2))
    #expect(Set(second.results.map(\.id)).isDisjoint(with: first.results.map(\.id)))
    let search = try await client.page(BookQuery(search: "dickens"))
    #expect(search.results.contains { $0.id == 98 })
    #expect(loads.value == 1)
  }

  @Test func theDefaultTransportMapsTheShippedCatalogue() async throws {
    let transport = EmbeddedTransport()
    let url = try #require(URL(string: "http://localhost/books/84/"))
    let response = try await transport.send(HTTPRequest(url: url))
    #expect(response.status == 200)
    #expect(response.body == (try embedded.get()).bookJSON(id: 84))
  }

  @Test func aFailedLoadIsReportedAndRetriedNextTime() async throws {
    let loads = LoadCounter()
    let transport = EmbeddedTransport(load: {
      loads.increment()
      if loads.value == 1 { throw EngineError.missingResource("catalogue") }
      return try embedded.get()
    })
    let url = try #require(URL(string: "http://localhost/books/"))
    await #expect(throws: EngineError.missingResource("catalogue")) {
      try await transport.send(HTTPRequest(url: url))
    }
    #expect(!transport.isLoaded)
    #expect(try await transport.send(HTTPRequest(url: url)).status == 200)
    #expect(loads.value == 2)
  }
}

/// Counts snapshot loads from a `@Sendable` closure.
final class LoadCounter: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
