import Foundation
import Gutendex
import Testing

@testable import GutendexEngine

@Suite("Pages and links")
struct PaginationTests {
  /// 100 French books titled "dickens great": 4 pages (32, 32, 32, 4).
  static func hundred() throws -> GutendexEngine {
    try GutendexEngine(
      books: (1...100).map {
        syntheticBook(id: $0, title: "dickens great", languages: ["fr"], downloads: 1000 - $0)
      })
  }

  static let invalidPage = #"{"detail":"Invalid page."}"#

  @Test(
    "page values with Python int() semantics",
    arguments: [
      ("page=2", 2), ("page=%202", 2), ("page=%2B2", 2), ("page=2%20", 2), ("page=", 1),
      ("page=last", 4),
      ("page=4", 4), ("page=1&page=3", 3), ("page=%EF%BC%92", 2), ("", 1),
    ])
  func validPages(query: String, page: Int) throws {
    let response = try get(Self.hundred(), "/books/?\(query)")
    #expect(response.status == 200)
    let body = try ListBody(response)
    #expect(body.count == 100)
    let first = (page - 1) * 32 + 1
    #expect(body.ids == Array(first...min(100, first + 31)))
  }

  @Test(
    "bad pages are 404 Invalid page.",
    arguments: [
      "page=0", "page=-1", "page=abc", "page=2.0", "page=5", "page=99999999999999999999",
      "page=LAST",
    ])
  func invalidPages(query: String) throws {
    let response = try get(Self.hundred(), "/books/?\(query)")
    #expect(response.status == 404)
    #expect(text(response.body) == Self.invalidPage)
    #expect(response.header("content-type") == "application/json")
  }

  @Test func emptyResultHasPageOneOnly() throws {
    let engine = try Self.hundred()
    let empty = try get(engine, "/books/?languages=zz")
    #expect(empty.status == 200)
    #expect(text(empty.body) == #"{"count":0,"next":null,"previous":null,"results":[]}"#)
    #expect(try get(engine, "/books/?languages=zz&page=last").status == 200)
    let second = try get(engine, "/books/?languages=zz&page=2")
    #expect(second.status == 404)
    #expect(text(second.body) == Self.invalidPage)
  }

  @Test(
    "next and previous are rebuilt the server's way",
    arguments: [
      (
        "/books/?search=dickens%20great&languages=FR", "http://engine.test",
        "http://engine.test/books/?languages=FR&page=2&search=dickens+great", nil
      ),
      (
        "/books/?search=dickens%20great&languages=FR&page=2", "http://engine.test",
        "http://engine.test/books/?languages=FR&page=3&search=dickens+great",
        "http://engine.test/books/?languages=FR&search=dickens+great"
      ),
      ("/books/?page=4", "http://engine.test", nil, "http://engine.test/books/?page=3"),
      (
        "/books/?foo=bar&page=2", "http://engine.test", "http://engine.test/books/?foo=bar&page=3",
        "http://engine.test/books/?foo=bar"
      ),
      (
        "/books/?zz=a/b,c%20%C3%A9~*&x=2&x=1&page=2", "http://127.0.0.1:8080",
        "http://127.0.0.1:8080/books/?page=3&x=2&x=1&zz=a%2Fb%2Cc+%C3%A9~%2A",
        "http://127.0.0.1:8080/books/?x=2&x=1&zz=a%2Fb%2Cc+%C3%A9~%2A"
      ),
      (
        "/books/?page=2&page=3", "https://mirror.example", "https://mirror.example/books/?page=4",
        "https://mirror.example/books/?page=2"
      ),
      (
        "/books/?flag&B=1&a=2", "http://engine.test",
        "http://engine.test/books/?B=1&a=2&flag=&page=2", nil
      ),
      (
        "/books.json?page=2", "http://engine.test", "http://engine.test/books.json?page=3",
        "http://engine.test/books.json"
      ),
    ] as [(String, String, String?, String?)])
  func links(target: String, host: String, next: String?, previous: String?) throws {
    let response = try get(Self.hundred(), target, host: host)
    #expect(response.status == 200)
    let body = try ListBody(response)
    #expect(body.next == next)
    #expect(body.previous == previous)
  }

  @Test func listBodyIsCompactWithServerKeyOrder() throws {
    let lines = try Fixture.lines()
    let engine = try Fixture.engine()
    let frankenstein = try #require(lines.first { $0.starts(with: Data(#"{"id":84,"#.utf8)) })
    let response = try get(engine, "/books/?ids=84")
    let expected =
      #"{"count":1,"next":null,"previous":null,"results":["# + text(frankenstein) + "]}"
    #expect(text(response.body) == expected)
    #expect(response.header("content-type") == "application/json")
  }
}
