import Foundation
import Testing

@testable import Gutendex

/// Bodies that are not what a Gutendex server sends fail with the JSON path that broke.
@Suite struct BadDataTests {
  func decodingError(_ text: String) -> BookDecodingError? {
    decodingError(Data(text.utf8))
  }

  func decodingError(_ data: Data) -> BookDecodingError? {
    do {
      _ = try BookPage.decode(from: data)
      return nil
    } catch {
      return error
    }
  }

  @Test func truncatedBody() throws {
    let data = try Fixtures.data("e4-2025-page1.json")
    let error = try #require(decodingError(data.prefix(data.count / 2)))
    #expect(error.path == "")
    #expect(error.reason.contains("truncated"))
  }

  @Test func emptyBody() throws {
    let error = try #require(decodingError(""))
    #expect(error == BookDecodingError(path: "", reason: "unexpected end of data at byte 0"))
    #expect(error.description == "top level: unexpected end of data at byte 0")
  }

  @Test func invalidJSONInsideABook() throws {
    let error = try #require(decodingError(#"{"count":1,"results":[{"id":1 "title":"x"}]}"#))
    #expect(error == BookDecodingError(path: "results[0]", reason: "not valid JSON"))
  }

  @Test func notJSONAtAll() throws {
    let error = try #require(decodingError("<html><body>Bad Gateway</body></html>"))
    #expect(
      error == BookDecodingError(path: "", reason: "expected a JSON value, found '<' at byte 0"))
  }

  @Test func arrayAtTopLevel() throws {
    let error = try #require(decodingError(#"[{"id":1}]"#))
    #expect(
      error == BookDecodingError(path: "", reason: "expected a JSON object, found '[' at byte 0"))
  }

  @Test func missingResults() throws {
    let error = try #require(decodingError(#"{"count":3,"next":null,"previous":null}"#))
    #expect(error == BookDecodingError(path: "results", reason: "missing key 'results'"))
    #expect(error.description == "results: missing key 'results'")
  }

  @Test func bookWithoutID() throws {
    let text = Fake.page(count: 2, next: nil, ids: [1]).replacingOccurrences(
      of: "]}", with: #",{"title":"no id"}]}"#)
    let error = try #require(decodingError(text))
    #expect(error == BookDecodingError(path: "results[1].id", reason: "missing key 'id'"))
  }

  @Test func wrongTypes() throws {
    let downloads = try #require(
      decodingError(#"{"count":1,"results":[{"id":1,"title":"a","download_count":"x"}]}"#))
    #expect(
      downloads == BookDecodingError(path: "results[0].download_count", reason: "expected Int"))
    let name = try #require(
      decodingError(#"{"count":1,"results":[{"id":1,"authors":[{"name":"a"},{"name":5}]}]}"#))
    #expect(
      name == BookDecodingError(path: "results[0].authors[1].name", reason: "expected String"))
    let nullID = try #require(decodingError(#"{"count":1,"results":[{"id":null}]}"#))
    #expect(nullID == BookDecodingError(path: "results[0].id", reason: "expected Int, found null"))
    let results = try #require(decodingError(#"{"count":1,"results":{"id":1}}"#))
    #expect(results.path == "results")
    #expect(results.reason.hasPrefix("expected an array, found '{'"))
  }

  @Test func wrongTypesInThePageFields() throws {
    let count = try #require(decodingError(#"{"count":"3","results":[]}"#))
    #expect(count == BookDecodingError(path: "count", reason: "expected a non-negative integer"))
    let negative = try #require(decodingError(#"{"count":-1,"results":[]}"#))
    #expect(negative.path == "count")
    let next = try #require(decodingError(#"{"count":0,"next":5,"results":[]}"#))
    #expect(next == BookDecodingError(path: "next", reason: "expected a URL string or null"))
    let previous = try #require(decodingError(#"{"count":0,"previous":{"a":1},"results":[]}"#))
    #expect(previous.path == "previous")
  }

  @Test func trailingGarbage() throws {
    let error = try #require(decodingError(#"{"count":0,"results":[]} x"#))
    #expect(
      error == BookDecodingError(path: "", reason: "unexpected data after the object at byte 24"))
    #expect(try BookPage.decode(from: Data("{\"count\":0,\"results\":[]} \n\t".utf8)).count == 0)
  }

  @Test func escapedQuotesAndBackslashesAtStringEnds() throws {
    let text =
      #"{"count":1,"next":"https://x.example/books/?search=a\\","previous":null,"#
      + #""results":[{"id":7,"title":"say \"hi\\\"","subjects":["\\","\"}]"]}],"c\u006funt":2}"#
    let page = try BookPage.decode(from: Data(text.utf8))
    #expect(page.count == 2)
    #expect(page.next == #"https://x.example/books/?search=a\"#)
    let book = try #require(page.results.first)
    #expect(book.title == #"say "hi\""#)
    #expect(book.subjects == [#"\"#, #""}]"#])
  }

  @Test func unterminatedStringAtTheEnd() throws {
    let error = try #require(decodingError(#"{"count":1,"next":"abc\"#))
    #expect(error.path == "")
    #expect(error.reason.hasPrefix("unterminated string"))
  }

  @Test func badDataThroughTheClientCarriesTheRequestURL() async throws {
    let body = Fake.page(count: 40, next: nil, ids: [1]).replacingOccurrences(
      of: "]}", with: #",{"title":"no id"}]}"#)
    let mock = MockTransport.success(body: body)
    let client = Fake.client(mock)
    let error = try #require(await caught { try await client.page(BookQuery(page: 2)) })
    let url = try #require(URL(string: "https://books.example/books/?page=2"))
    #expect(error == .badData(url: url, path: "results[1].id", reason: "missing key 'id'"))
    #expect(
      error.description
        == "bad data from server at results[1].id: missing key 'id' (https://books.example/books/?page=2)"
    )
    #expect(mock.count == 1)
  }

  @Test func badBookThroughTheClient() async throws {
    let mock = MockTransport.success(body: #"{"title":"x","download_count":"many"}"#)
    let error = try #require(await caught { try await Fake.client(mock).book(id: 84) })
    let url = try #require(URL(string: "https://books.example/books/84/"))
    #expect(error == .badData(url: url, path: "id", reason: "missing key 'id'"))
  }

  @Test func truncatedBodyThroughTheClient() async throws {
    let mock = MockTransport.success(
      body: #"{"count":1,"next":null,"previous":null,"results":[{"id":1"#)
    let error = try #require(await caught { try await Fake.client(mock).page(BookQuery()) })
    guard case .badData(let url, let path, let reason) = error else {
      Issue.record("expected badData, got \(error)")
      return
    }
    #expect(url.absoluteString == "https://books.example/books/")
    #expect(path == "")
    #expect(reason.contains("truncated"))
    #expect(
      error.description.hasPrefix("bad data from server at top level: unexpected end of data"))
  }
}
