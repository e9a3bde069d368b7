import Foundation
import Gutendex

@testable import Terminal

/// Every screen built from real recordings with fixed dates and ages, for the captures in
/// `Screens/` and the width and sanitising checks.
enum SampleScreens {
  /// A fixed "now": 2026-11-21 06:30:00 UTC.
  static let now = Date(timeIntervalSince1970: 1_795_242_600)
  static let utc = TimeZone(identifier: "UTC") ?? .gmt

  static func rows(_ books: [Book], favorites: Set<Int> = []) -> [BookRow] {
    books.enumerated().map { offset, book in
      BookRow(number: offset + 1, book: book, isFavorite: favorites.contains(book.id))
    }
  }

  static func browse() throws -> BrowseScreen {
    let page = try Fixtures.page("e4-2025-page1")
    return BrowseScreen(
      query: BrowseScreen.summary(of: BookQuery()), page: 1, pageCount: page.pageCount,
      totalCount: page.count, rows: rows(page.results, favorites: [1342, 84, 2554]))
  }

  static func searchResults() throws -> BrowseScreen {
    let page = try Fixtures.page("e2-2022-search-great-expectations")
    return BrowseScreen(
      query: BrowseScreen.summary(of: BookQuery(search: "great expectations", languages: ["en"])),
      page: 1, pageCount: page.pageCount, totalCount: page.count,
      rows: rows(page.results, favorites: [1400]))
  }

  static func details() throws -> DetailScreen {
    DetailScreen(book: try Fixtures.book(2554, in: "e4-2025-page1"), isFavorite: true)
  }

  static func links() throws -> LinksScreen {
    LinksScreen(book: try Fixtures.book(24746, in: "de__page_1"))
  }

  static func favorites() throws -> FavoritesScreen {
    let picks: [(Int, String, Double, Bool)] = [
      (1342, "e4-2025-page1", 0, false),
      (1982, "ja__page_1", 1, false),
      (24264, "zh__page_1", 2, false),
      (60045, "en__page_87", 3, true),
      (43669, "en__page_536", 5, false),
      (9637, "fr__page_9", 8, false),
      (1400, "e2-2022-search-great-expectations", 13, false),
    ]
    var favoriteRows: [FavoritesScreen.Row] = []
    for (offset, pick) in picks.enumerated() {
      let book = try Fixtures.book(pick.0, in: pick.1)
      favoriteRows.append(
        FavoritesScreen.Row(
          book: BookRow(number: offset + 1, book: book, isFavorite: true),
          addedAt: now.addingTimeInterval(-pick.2 * 86_400 - 3_600), isMissingOnServer: pick.3))
    }
    return FavoritesScreen(order: .newest, rows: favoriteRows, timeZone: utc)
  }

  static func exportConfirmation() -> ExportConfirmation {
    ExportConfirmation(count: 7, path: "/home/reader/gutenberg-favourites.json")
  }

  static func help() -> HelpScreen { HelpScreen() }

  static func offlineCached() throws -> BrowseScreen {
    let page = try Fixtures.page("ru__page_1")
    return BrowseScreen(
      query: BrowseScreen.summary(of: BookQuery(languages: ["ru"])), page: 1,
      pageCount: page.pageCount, totalCount: page.count, source: .offlineCache(age: 300),
      rows: rows(page.results))
  }

  static func offlineEmbedded() throws -> BrowseScreen {
    let page = try Fixtures.page("zh__page_1")
    return BrowseScreen(
      query: BrowseScreen.summary(of: BookQuery(languages: ["zh"])), page: 1,
      pageCount: page.pageCount, totalCount: page.count,
      source: .offlineEmbedded(snapshot: "2025-08"), rows: rows(page.results))
  }

  static func status() -> StatusScreen {
    func at(_ seconds: Double) -> Date { now.addingTimeInterval(-seconds) }
    return StatusScreen(
      serverURL: "https://gutendex.com", reachability: .reachable(checkedAgo: 95), source: .live,
      favoriteCount: 7, favoritesRefreshedAgo: 3 * 3_600 + 120, cachedPageCount: 48,
      cacheBytes: 1_258_291, oldestCachedAge: 2 * 86_400 + 600,
      requests: [
        .init(
          startedAt: at(600), target: "/books/?languages=ru",
          outcome: .failure("timed out after 10 s"),
          durationMilliseconds: 10_000, origin: .fallback),
        .init(
          startedAt: at(420), target: "/books/", outcome: .status(429), durationMilliseconds: 88,
          origin: .network),
        .init(
          startedAt: at(300), target: "/books/?page=2", outcome: .status(200),
          durationMilliseconds: 1_234, origin: .network),
        .init(
          startedAt: at(180), target: "/books/?page=2", outcome: .status(200),
          durationMilliseconds: 2, origin: .cache),
        .init(
          startedAt: at(95), target: "/books/2554/", outcome: .status(200),
          durationMilliseconds: 412, origin: .network),
      ], timeZone: utc)
  }

  static func serverDown() -> ErrorLine {
    let url = URL(string: "https://gutendex.com/books/?page=2") ?? URL(fileURLWithPath: "/")
    return ErrorLine(GutendexError.unreachable(url: url, reason: "connection refused"))
  }

  static func rateLimited() -> ErrorLine {
    let url = URL(string: "https://gutendex.com/books/") ?? URL(fileURLWithPath: "/")
    return ErrorLine(GutendexError.rateLimited(retryAfter: .seconds(2), url: url))
  }

  static func narrow() throws -> BrowseScreen {
    var books = [try Fixtures.book(60045, in: "en__page_87")]
    books += try Fixtures.page("ja__page_1").results.prefix(5)
    books += try Fixtures.page("zh__page_1").results.prefix(5)
    books.append(try Fixtures.book(43282, in: "en__page_775"))
    return BrowseScreen(
      query: "search \"dream\" · lang en,ja,zh · sort popular", page: 1, pageCount: 1,
      totalCount: books.count, rows: rows(books, favorites: [60045, 1982]))
  }

  /// Every capture: file name, width, screen.
  static func all() throws -> [(name: String, width: Int, screen: any LineRendering)] {
    [
      ("browse", 100, try browse()),
      ("search-results", 100, try searchResults()),
      ("details", 100, try details()),
      ("links", 100, try links()),
      ("favorites", 100, try favorites()),
      ("export-confirmation", 100, exportConfirmation()),
      ("help", 100, help()),
      ("offline-cached", 100, try offlineCached()),
      ("offline-embedded", 100, try offlineEmbedded()),
      ("status", 100, status()),
      ("error-server-down", 100, serverDown()),
      ("error-rate-limited", 100, rateLimited()),
      ("error-page-out-of-range", 100, ErrorLine.pageOutOfRange(page: 9, pageCount: 3)),
      ("error-bad-command", 100, ErrorLine.unknownCommand("xyz")),
      ("narrow", 60, try narrow()),
    ]
  }
}
