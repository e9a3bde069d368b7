import Foundation
import Gutendex
import Testing

@testable import GutendexEngine

@Suite("Routes, methods and errors")
struct RoutingTests {
  static let noBook = #"{"detail":"No Book matches the given query."}"#
  static let notFound = #"{"detail":"Not found."}"#
  static let forbidden = #"{"detail":"Authentication credentials were not provided."}"#

  @Test func everyFixtureBookRoundTripsThroughTheDetailEndpoint() throws {
    let engine = try Fixture.engine()
    let lines = try Fixture.lines()
    #expect(engine.bookCount == lines.count)
    for line in lines {
      let id = try #require(
        (JSONSerialization.jsonObject(with: line) as? [String: Any])?["id"] as? Int)
      let response = try get(engine, "/books/\(id)/")
      #expect(response.status == 200)
      #expect(response.body == line, "book \(id)")
    }
  }

  @Test(
    "detail answers",
    arguments: [
      ("/books/84/", 200, nil), ("/books/+84/", 200, nil), ("/books/%2084/", 200, nil),
      ("/books/84/?languages=en", 200, nil), ("/books/84/?page=999", 200, nil),
      ("/books/84/?languages=fr", 404, noBook), ("/books/84/?ids=1342", 404, noBook),
      ("/books/84/?ids=84,1342", 200, nil), ("/books/999999999/", 404, noBook),
      ("/books/-84/", 404, noBook), ("/books/abc/", 404, notFound), ("/books/84.json", 200, nil),
      ("/books/84.json/", 200, nil), ("/books/84.xml", 404, notFound),
      ("/books/84/?format=json", 200, nil), ("/books/84/?format=xml", 404, notFound),
      ("/books/84/?format=", 200, nil), ("/books/?format=xml", 404, notFound),
      ("/books/?format=json", 200, nil), ("/books.json", 200, nil), ("/books.xml", 404, notFound),
    ] as [(String, Int, String?)])
  func details(target: String, status: Int, body: String?) throws {
    let response = try get(Fixture.engine(), target)
    #expect(response.status == status)
    #expect(response.header("content-type") == "application/json")
    if let body { #expect(text(response.body) == body) }
  }

  @Test(
    "slash redirects keep the query and are relative",
    arguments: [
      ("/books?search=dickens%20great&languages=en", "/books/?search=dickens%20great&languages=en"),
      ("/books", "/books/"), ("/books/84", "/books/84/"),
      ("/books/84?languages=fr", "/books/84/?languages=fr"),
      ("/books/abc", "/books/abc/"),
    ])
  func redirects(target: String, location: String) throws {
    for method in ["GET", "POST"] {
      let response = try get(Fixture.engine(), target, method: method)
      #expect(response.status == 301)
      #expect(response.header("location") == location)
      #expect(response.body.isEmpty)
      #expect(response.mediaType == "text/html")
    }
  }

  @Test(
    "unknown paths are HTML 404 pages",
    arguments: ["/foo/", "/books/1/extra/", "/books/1/extra", "/book/", "/books.JSON"])
  func unknownPaths(target: String) throws {
    let response = try get(Fixture.engine(), target)
    #expect(response.status == 404)
    #expect(response.mediaType == "text/html")
    #expect(text(response.body).contains("Page Not Found"))
  }

  @Test(
    "writes are refused",
    arguments: [
      ("POST", "/books/"), ("PUT", "/books/84/"), ("PATCH", "/books/84/"), ("DELETE", "/books/84/"),
    ])
  func writes(method: String, target: String) throws {
    let response = try get(Fixture.engine(), target, method: method)
    #expect(response.status == 403)
    #expect(text(response.body) == Self.forbidden)
  }

  @Test func optionsDescribesTheViewWithItsAllowHeader() throws {
    let engine = try Fixture.engine()
    let list = try get(engine, "/books/", method: "OPTIONS")
    #expect(list.status == 200)
    #expect(list.header("allow") == "GET, POST, HEAD, OPTIONS")
    #expect(text(list.body).contains(#""name":"Book List""#))
    let detail = try get(engine, "/books/84/", method: "OPTIONS")
    #expect(detail.header("allow") == "GET, PUT, PATCH, DELETE, HEAD, OPTIONS")
  }

  @Test func linksUseTheHostHeaderWhenThereIsOne() throws {
    let engine = try Fixture.engine()
    let response = try get(engine, "/books/?languages=en", headers: ["Host": "proxy.example:9000"])
    #expect(try ListBody(response).next == "http://proxy.example:9000/books/?languages=en&page=2")
  }

  @Test func headHasHeadersButNoBody() throws {
    let response = try get(Fixture.engine(), "/books/84/", method: "HEAD")
    #expect(response.status == 200)
    #expect(response.body.isEmpty)
    #expect(response.header("content-type") == "application/json")
  }

  @Test func acceptWithoutJSONIs406() throws {
    let engine = try Fixture.engine()
    let html = try get(engine, "/books/", headers: ["Accept": "text/html"])
    #expect(html.status == 406)
    #expect(text(html.body) == #"{"detail":"Could not satisfy the request Accept header."}"#)
    let browser = try get(
      engine, "/books/", headers: ["accept": "text/html,application/xhtml+xml,*/*;q=0.8"])
    #expect(browser.status == 200)
  }

  @Test func corsHeaderOnlyWithOrigin() throws {
    let engine = try Fixture.engine()
    #expect(
      try get(engine, "/books/", headers: ["Origin": "https://a.example"]).header(
        "access-control-allow-origin") == "*")
    #expect(try get(engine, "/books/").header("access-control-allow-origin") == nil)
  }
}
