import Foundation
import Testing

@testable import Gutendex

/// URLs always end in a slash, sit below the configured base, and `next` links are rebased.
@Suite struct EndpointURLTests {
  func client(_ server: String) throws -> GutendexClient {
    Fake.client(MockTransport.sequence([]), server: try #require(URL(string: server)))
  }

  @Test func trailingSlashAlways() throws {
    let client = try client("https://gutendex.com")
    #expect(
      try client.url(for: Endpoint.books(BookQuery()).target).absoluteString
        == "https://gutendex.com/books/")
    #expect(
      try client.url(for: Endpoint.book(id: 84).target).absoluteString
        == "https://gutendex.com/books/84/")
    #expect(
      try client.url(for: Endpoint.books(BookQuery(search: "a b", page: 2)).target).absoluteString
        == "https://gutendex.com/books/?page=2&search=a%20b")
  }

  @Test(arguments: [
    "https://example.org/gutendex", "https://example.org/gutendex/",
    "https://example.org/gutendex//",
  ])
  func baseURLWithAPathPrefix(server: String) throws {
    let client = try client(server)
    #expect(
      try client.url(for: Endpoint.books(BookQuery(languages: ["fr"])).target).absoluteString
        == "https://example.org/gutendex/books/?languages=fr")
    #expect(
      try client.url(for: Endpoint.book(id: 1342).target).absoluteString
        == "https://example.org/gutendex/books/1342/")
    #expect(
      try client.url(for: Endpoint.link("https://gutendex.com/books/?page=2").target).absoluteString
        == "https://example.org/gutendex/books/?page=2")
  }

  @Test func portIsKept() throws {
    let client = try client("http://127.0.0.1:8080")
    #expect(
      try client.url(for: Endpoint.book(id: 1).target).absoluteString
        == "http://127.0.0.1:8080/books/1/")
  }

  @Test(arguments: [
    ("http://129.241.150.113:8000/books/?languages=en&page=2", "languages=en&page=2"),
    ("http://gutendex.com/books/?page=2", "page=2"),
    ("https://gutendex.com/books/?page=3&search=dickens+great", "page=3&search=dickens+great"),
    ("https://other.example/books/?search=dickens+great&page=3", "search=dickens+great&page=3"),
    (
      "https://gutendex.com/books/?languages=en%2Cfr&page=2&topic=%C3%A9t%C3%A9",
      "languages=en%2Cfr&page=2&topic=%C3%A9t%C3%A9"
    ),
    ("https://gutendex.com/books.json?page=2", "page=2"),
    ("/books/?page=2&topic=fiction", "page=2&topic=fiction"),
  ])
  func nextLinksAreRebasedKeepingTheQueryOpaque(link: String, query: String) throws {
    let client = try client("https://books.example")
    let url = try client.url(for: Endpoint.link(link).target)
    #expect(url.absoluteString == "https://books.example/books/?" + query)
  }

  @Test func aLinkThatIsNotAURLIsRefused() throws {
    let client = try client("https://books.example")
    #expect(
      throws: GutendexError.invalidRequest(
        reason: "the server sent a link that is not a URL: http://a b/%zz")
    ) {
      try client.url(for: Endpoint.link("http://a b/%zz").target)
    }
  }

  @Test func aServerWithoutHostIsRefused() async throws {
    let client = try client("file:///tmp/gutendex")
    let error = try #require(await caught { try await client.book(id: 1) })
    #expect(error == .invalidRequest(reason: "not a usable server URL: file:///tmp/gutendex"))
    #expect(error.description == "invalid request: not a usable server URL: file:///tmp/gutendex")
    #expect(error.url == nil)
  }
}
