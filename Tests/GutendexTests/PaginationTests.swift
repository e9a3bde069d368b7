import Foundation
import TestSupport
import Testing

@testable import Gutendex

/// `pages` and `books` follow `next` to the end, safely, on the configured server.
@Suite struct PaginationTests {
  /// Pages keyed by their `page` parameter (absent = 1), like a real server.
  static func server(_ pages: [Int: String]) -> MockTransport {
    MockTransport.routing { request in
      let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
      let number = items.last { $0.name == "page" }?.value.flatMap { Int($0) } ?? 1
      guard let body = pages[number] else {
        return .json(#"{"detail":"Invalid page."}"#, status: 404)
      }
      return .json(body)
    }
  }

  func collect(_ sequence: BookPages) async throws -> [BookPage] {
    var pages: [BookPage] = []
    for try await page in sequence { pages.append(page) }
    return pages
  }

  @Test func followsThreePagesToTheEnd() async throws {
    let mock = Self.server([
      1: Fake.page(
        count: 7, next: "https://gutendex.com/books/?page=2&search=a+b", ids: [1, 2, 3]),
      2: Fake.page(
        count: 7, next: "https://gutendex.com/books/?page=3&search=a+b", ids: [4, 5, 6]),
      3: Fake.page(count: 7, next: nil, ids: [7]),
    ])
    let pages = try await collect(Fake.client(mock).pages(BookQuery(search: "a b")))
    #expect(pages.map { $0.results.map(\.id) } == [[1, 2, 3], [4, 5, 6], [7]])
    #expect(
      mock.urls == [
        "https://books.example/books/?search=a%20b",
        "https://books.example/books/?page=2&search=a+b",
        "https://books.example/books/?page=3&search=a+b",
      ])
  }

  @Test func booksFlattensInOrder() async throws {
    let mock = Self.server([
      1: Fake.page(count: 5, next: "https://gutendex.com/books/?page=2", ids: [10, 20]),
      2: Fake.page(count: 5, next: "https://gutendex.com/books/?page=3", ids: [30, 40]),
      3: Fake.page(count: 5, next: nil, ids: [50]),
    ])
    var ids: [Int] = []
    for try await book in Fake.client(mock).books(BookQuery()) { ids.append(book.id) }
    #expect(ids == [10, 20, 30, 40, 50])
    #expect(mock.count == 3)
  }

  @Test func duplicateIDsAcrossPagesAreDropped() async throws {
    let mock = Self.server([
      1: Fake.page(count: 6, next: "https://gutendex.com/books/?page=2", ids: [1, 2, 3]),
      2: Fake.page(count: 6, next: "https://gutendex.com/books/?page=3", ids: [3, 4, 1]),
      3: Fake.page(count: 6, next: nil, ids: [4, 5, 6]),
    ])
    var ids: [Int] = []
    for try await book in Fake.client(mock).books(BookQuery()) { ids.append(book.id) }
    #expect(ids == [1, 2, 3, 4, 5, 6])
  }

  @Test func aPageOfOnlyDuplicatesDoesNotEndTheStream() async throws {
    let mock = Self.server([
      1: Fake.page(count: 4, next: "https://gutendex.com/books/?page=2", ids: [1, 2]),
      2: Fake.page(count: 4, next: "https://gutendex.com/books/?page=3", ids: [2, 1]),
      3: Fake.page(count: 4, next: nil, ids: [3]),
    ])
    let pages = try await collect(Fake.client(mock).pages(BookQuery()))
    #expect(pages.map { $0.results.map(\.id) } == [[1, 2], [], [3]])
  }

  @Test func aRepeatedNextStops() async throws {
    let mock = Self.server([
      1: Fake.page(count: 9, next: "https://gutendex.com/books/?page=2", ids: [1]),
      2: Fake.page(count: 9, next: "https://gutendex.com/books/?page=3", ids: [2]),
      3: Fake.page(count: 9, next: "http://mirror.example/books/?page=2", ids: [3]),
    ])
    let pages = try await collect(Fake.client(mock).pages(BookQuery()))
    #expect(pages.count == 3)
    #expect(mock.count == 3)
  }

  @Test func aNextBackToTheFirstPageInAnotherSpellingStops() async throws {
    let mock = Self.server([
      1: Fake.page(
        count: 9, next: "https://gutendex.com/books/?page=2&search=dickens+great", ids: [1]),
      2: Fake.page(
        count: 9, next: "https://gutendex.com/books/?search=dickens%20great&page=1", ids: [2]),
    ])
    let pages = try await collect(Fake.client(mock).pages(BookQuery(search: "dickens great")))
    #expect(pages.map { $0.results.map(\.id) } == [[1], [2]])
    #expect(mock.count == 2)
  }

  @Test func aNextPointingAtItselfStops() async throws {
    let mock = Self.server([1: Fake.page(count: 9, next: "https://gutendex.com/books/", ids: [1])])
    let pages = try await collect(Fake.client(mock).pages(BookQuery()))
    #expect(pages.count == 1)
    #expect(mock.count == 1)
  }

  @Test func nilNextStops() async throws {
    let mock = Self.server([1: Fake.page(count: 2, next: nil, ids: [1, 2])])
    let pages = try await collect(Fake.client(mock).pages(BookQuery()))
    #expect(pages.map(\.count) == [2])
    #expect(mock.count == 1)
  }

  @Test func anEmptyPageStops() async throws {
    let mock = Self.server([
      1: Fake.page(count: 90, next: "https://gutendex.com/books/?page=2", ids: [1]),
      2: Fake.page(count: 90, next: "https://gutendex.com/books/?page=3", ids: []),
      3: Fake.page(count: 90, next: nil, ids: [3]),
    ])
    let pages = try await collect(Fake.client(mock).pages(BookQuery()))
    #expect(pages.map { $0.results.map(\.id) } == [[1]])
    #expect(mock.count == 2)
  }

  @Test func anEmptyResultSetIsOneEmptyPage() async throws {
    let mock = Self.server([
      1: try String(decoding: Fixtures.data("e2-2022-no-results.json"), as: UTF8.self)
    ])
    let pages = try await collect(Fake.client(mock).pages(BookQuery(search: "zzzzqqq")))
    #expect(pages.count == 1)
    #expect(pages.first?.count == 0)
    #expect(pages.first?.results.isEmpty == true)
    #expect(mock.count == 1)
  }

  @Test func nextOnAnotherHostIsRebased() async throws {
    let server = try #require(URL(string: "http://127.0.0.1:8080/api"))
    let first = try String(decoding: Fixtures.data("mirror-2024/de__page_1.json"), as: UTF8.self)
    let mock = MockTransport.sequence([
      .json(first), .json(Fake.page(count: 2198, next: nil, ids: [99_999])),
    ])
    let pages = try await collect(
      Fake.client(mock, server: server).pages(BookQuery(languages: ["de"])))
    #expect(pages.count == 2)
    #expect(pages.first?.next == "http://129.241.150.113:8000/books/?languages=de&page=2")
    #expect(
      mock.urls == [
        "http://127.0.0.1:8080/api/books/?languages=de",
        "http://127.0.0.1:8080/api/books/?languages=de&page=2",
      ])
  }

  @Test func anErrorMidStreamIsThrownAndEndsTheSequence() async throws {
    let mock = Self.server([
      1: Fake.page(count: 64, next: "https://gutendex.com/books/?page=2", ids: [1])
    ])
    var iterator = Fake.client(mock, retry: .none).pages(BookQuery()).makeAsyncIterator()
    #expect(try await iterator.next()?.results.map(\.id) == [1])
    let url = try #require(URL(string: "https://books.example/books/?page=2"))
    await #expect(throws: GutendexError.http(status: 404, detail: "Invalid page.", url: url)) {
      try await iterator.next()
    }
    #expect(try await iterator.next() == nil)
    #expect(mock.count == 2)
  }

  @Test func cancellationBetweenPagesStopsRequesting() async throws {
    let mock = Self.server([
      1: Fake.page(count: 9, next: "https://gutendex.com/books/?page=2", ids: [1]),
      2: Fake.page(count: 9, next: "https://gutendex.com/books/?page=3", ids: [2]),
    ])
    let client = Fake.client(mock)
    let task = Task { () -> (Int, GutendexError?) in
      var seen = 0
      do {
        for try await _ in client.pages(BookQuery()) {
          seen += 1
          withUnsafeCurrentTask { $0?.cancel() }
        }
        return (seen, nil)
      } catch {
        return (seen, error as? GutendexError)
      }
    }
    let (seen, error) = try await Awaiting.value("the paging cancelled by itself to end") {
      await task.value
    }
    #expect(seen == 1)
    #expect(
      error == .cancelled(url: try #require(URL(string: "https://books.example/books/?page=2"))))
    #expect(mock.count == 1)
  }

  @Test func cancellationWhileAPageLoads() async throws {
    let mock = MockTransport.sequence([
      .json(Fake.page(count: 9, next: "https://gutendex.com/books/?page=2", ids: [1])), .hang,
    ])
    let client = Fake.client(mock)
    let task = Task { () -> (Int, GutendexError?) in
      var seen = 0
      do {
        for try await _ in client.books(BookQuery()) { seen += 1 }
        return (seen, nil)
      } catch {
        return (seen, error as? GutendexError)
      }
    }
    try await mock.waitForRequests(2)
    task.cancel()
    let (seen, error) = try await Awaiting.value("the cancelled paging to end") { await task.value }
    #expect(seen == 1)
    #expect(
      error == .cancelled(url: try #require(URL(string: "https://books.example/books/?page=2"))))
    #expect(mock.count == 2)
  }

  @Test func loopKeyIgnoresSpellingOrderAndFirstPage() throws {
    func key(_ text: String) throws -> String { BookPages.loopKey(try #require(URL(string: text))) }
    #expect(
      try key("https://x/books/?search=a+b&page=2") == key("https://x/books/?page=2&search=a%20b"))
    #expect(try key("https://x/books/?page=1&search=a") == key("https://x/books/?search=a"))
    #expect(try key("https://x/books/?page=2") != key("https://x/books/?page=3"))
    #expect(try key("https://x/books/?search=a%2Bb") != key("https://x/books/?search=a+b"))
  }
}
