import Foundation
import Testing

@testable import Gutendex

/// `BookQuery` speaks the server's parameter names, in a stable order, safely encoded.
@Suite struct BookQueryTests {
  @Test func defaultsAreOmitted() {
    #expect(BookQuery().encoded == "")
    #expect(BookQuery(sort: .popular, page: 1).parameters.isEmpty)
  }

  @Test(arguments: [
    (BookQuery(search: "dickens"), "search=dickens"),
    (BookQuery(languages: ["en", "fr"]), "languages=en%2Cfr"),
    (BookQuery(topic: "children"), "topic=children"),
    (BookQuery(authorYearStart: -500), "author_year_start=-500"),
    (BookQuery(authorYearEnd: 1800), "author_year_end=1800"),
    (BookQuery(copyright: [.publicDomain]), "copyright=false"),
    (BookQuery(ids: [84, 1342, 11]), "ids=84%2C1342%2C11"),
    (BookQuery(mimeType: "text/html"), "mime_type=text%2Fhtml"),
    (BookQuery(sort: .ascending), "sort=ascending"),
    (BookQuery(sort: .descending), "sort=descending"),
    (BookQuery(page: 3), "page=3"),
  ])
  func eachParameterUsesTheServersName(query: BookQuery, encoded: String) {
    #expect(query.encoded == encoded)
  }

  @Test func everyParameterInAlphabeticalOrder() {
    let query = BookQuery(
      search: "great expectations", languages: ["en"], topic: "fiction", authorYearStart: 1800,
      authorYearEnd: 1900, copyright: [.publicDomain, .unknown, .copyrighted], ids: [1400],
      mimeType: "text/", sort: .descending, page: 2)
    #expect(
      query.parameters.map(\.name) == [
        "author_year_end", "author_year_start", "copyright", "ids", "languages", "mime_type",
        "page",
        "search", "sort", "topic",
      ])
    #expect(
      query.encoded
        == "author_year_end=1900&author_year_start=1800&copyright=false%2Cnull%2Ctrue&ids=1400"
        + "&languages=en&mime_type=text%2F&page=2&search=great%20expectations&sort=descending"
        + "&topic=fiction")
  }

  @Test func percentEncoding() {
    #expect(BookQuery(search: "a b").encoded == "search=a%20b")
    #expect(BookQuery(search: "Brontë").encoded == "search=Bront%C3%AB")
    #expect(BookQuery(search: "Достоевский").encoded.hasPrefix("search=%D0%94%D0%BE"))
    #expect(BookQuery(search: "tom&jerry=1").encoded == "search=tom%26jerry%3D1")
    #expect(BookQuery(search: "a+b?c#d/e%").encoded == "search=a%2Bb%3Fc%23d%2Fe%25")
    #expect(BookQuery(topic: "a,b").encoded == "topic=a%2Cb")
    #expect(BookQuery(search: "keep-._~").encoded == "search=keep-._~")
  }

  @Test func encodedQueryRoundTripsThroughURLComponents() throws {
    let query = BookQuery(search: "tom & jerry = 1, Brontë", topic: "a+b")
    var components = try #require(URLComponents(string: "https://x.example/books/"))
    components.percentEncodedQuery = query.encoded
    let items = try #require(components.queryItems)
    #expect(items.map(\.name) == ["search", "topic"])
    #expect(items.map(\.value) == ["tom & jerry = 1, Brontë", "a+b"])
  }

  @Test func encodingIsStable() {
    let a = BookQuery(
      search: "x", languages: ["fr", "en"], copyright: [.copyrighted, .publicDomain])
    let b = BookQuery(
      search: "x", languages: ["fr", "en"], copyright: [.publicDomain, .copyrighted])
    #expect(a.encoded == b.encoded)
    #expect(a.encoded == "copyright=false%2Ctrue&languages=fr%2Cen&search=x")
    #expect(a == b)
  }

  @Test func cacheKeyIgnoresThePage() {
    let query = BookQuery(search: "austen", languages: ["en"])
    #expect(query.atPage(5).cacheKey == query.cacheKey)
    #expect(query.atPage(5).encoded != query.encoded)
    #expect(query.cacheKey == "languages=en&search=austen")
    #expect(BookQuery(search: "austen").cacheKey != query.cacheKey)
    #expect(
      BookQuery(copyright: [.unknown, .copyrighted]).atPage(2).cacheKey
        == BookQuery(copyright: [.copyrighted, .unknown]).cacheKey)
  }

  @Test func pageCount() {
    #expect(BookQuery.pageCount(forResults: 0) == 1)
    #expect(BookQuery.pageCount(forResults: 32) == 1)
    #expect(BookQuery.pageCount(forResults: 33) == 2)
    #expect(BookQuery.pageCount(forResults: 58808) == 1838)
  }

  @Test func codableRoundTrip() throws {
    let query = BookQuery(
      search: "x", languages: ["enm"], authorYearStart: -750, copyright: [.unknown], ids: [1],
      sort: .ascending, page: 4)
    let decoded = try JSONDecoder().decode(BookQuery.self, from: JSONEncoder().encode(query))
    #expect(decoded == query)
  }
}
