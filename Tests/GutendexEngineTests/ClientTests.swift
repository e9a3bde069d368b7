import Foundation
import Gutendex
import Testing

@testable import GutendexEngine

@Suite("The engine as a GutendexClient transport")
struct ClientTests {
  static func client() throws -> (GutendexClient, GutendexEngine) {
    let engine = try Fixture.engine()
    let server = try #require(URL(string: "http://engine.test"))
    return (GutendexClient(server: server, transport: engine), engine)
  }

  @Test func pagesThroughAQuery() async throws {
    let (client, engine) = try Self.client()
    var ids: [Int] = []
    var pages = 0
    for try await page in client.pages(BookQuery(languages: ["en"])) {
      pages += 1
      ids += page.results.map(\.id)
    }
    let expected = try allIDs(engine, "languages=en")
    try #require(expected.count > 64, "the query should span several pages")
    #expect(ids == expected.ids)
    #expect(pages == (expected.count + 31) / 32)
  }

  @Test func getsABook() async throws {
    let (client, _) = try Self.client()
    let book = try await client.book(id: 84)
    let line = try #require(try Fixture.lines().first { $0.starts(with: Data(#"{"id":84,"#.utf8)) })
    #expect(book.id == 84)
    #expect(book.rawJSON == line)
    #expect(book.authors.first?.name == "Shelley, Mary Wollstonecraft")
  }

  @Test func notFoundAndBadPagesAreHTTPErrors() async throws {
    let (client, _) = try Self.client()
    await #expect(throws: GutendexError.self) { try await client.book(id: 999_999_999) }
    do {
      _ = try await client.book(id: 999_999_999)
      Issue.record("expected a 404")
    } catch {
      guard case .http(let status, let detail, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(status == 404)
      #expect(detail == "No Book matches the given query.")
    }
    do {
      _ = try await client.page(BookQuery(page: 999))
      Issue.record("expected a 404")
    } catch {
      guard case .http(let status, let detail, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(status == 404)
      #expect(detail == "Invalid page.")
    }
  }
}
