import Catalog
import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Terminal

/// Every renderer's input built by hand from real recordings with fixed dates and ages, for the
/// renderers' unit tests (widths, sanitising, alignment). The captures in `Screens/` come from
/// the running app instead (``ProductionCaptures``).
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
      pageCount: page.pageCount, totalCount: page.count,
      provenance: Provenance(
        .cache(fetchedAt: now.addingTimeInterval(-300)), fallbackReason: "connection refused"),
      now: now, rows: rows(page.results))
  }

  static func offlineEmbedded() throws -> BrowseScreen {
    let page = try Fixtures.page("zh__page_1")
    return BrowseScreen(
      query: BrowseScreen.summary(of: BookQuery(languages: ["zh"])), page: 1,
      pageCount: page.pageCount, totalCount: page.count,
      provenance: Provenance(
        .local(name: "embedded catalogue of 2025-08"), fallbackReason: "connection refused"),
      now: now, rows: rows(page.results))
  }

  static func status() -> StatusScreen {
    func at(_ seconds: Double) -> Date { now.addingTimeInterval(-seconds) }
    return StatusScreen(
      serverURL: "https://gutendex.com", reachability: .reachable(checkedAgo: 95),
      provenance: .network, now: now,
      favoriteCount: 7, favoritesRefreshedAgo: 3 * 3_600 + 120, cachedPageCount: 48,
      cacheBytes: 1_258_291, oldestCachedAge: 2 * 86_400 + 600,
      requests: [
        .init(
          startedAt: at(600), target: "/books/?languages=ru",
          outcome: .failure("timed out after 10 s"),
          durationMilliseconds: 10_000, origin: .local),
        .init(
          method: "GET", startedAt: at(420), target: "/books/", outcome: .status(429),
          durationMilliseconds: 88, origin: .network),
        .init(
          method: "GET", startedAt: at(300), target: "/books/?page=2", outcome: .status(200),
          durationMilliseconds: 1_234, origin: .network),
        .init(
          startedAt: at(180), target: "/books/?page=2", outcome: .status(200),
          durationMilliseconds: 2, origin: .cache),
        .init(
          method: "GET", startedAt: at(95), target: "/books/2554/", outcome: .status(200),
          durationMilliseconds: 412, origin: .network),
      ], timeZone: utc)
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

  /// A download's progress line mid-way, and its final line.
  static func progress() -> Stacked {
    Stacked(parts: [
      ProgressLine(
        name: "84-frankenstein-or-the-modern-prometheus.epub", received: 1_258_291,
        total: 3_087_008, bytesPerSecond: 838_861, elapsed: 1.5),
      ProgressLine(
        name: "84-frankenstein-or-the-modern-prometheus.epub", received: 3_087_008,
        total: 3_087_008, bytesPerSecond: 1_029_003, elapsed: 3, finished: true),
    ])
  }

  /// The library: three downloads, one deleted by hand.
  static func library() -> LibraryScreen {
    func entry(
      _ id: Int, _ format: String, _ title: String, _ name: String, _ size: Int64, _ days: Double
    )
      -> LibraryEntry
    {
      LibraryEntry(
        id: id, format: format, title: title, path: "/home/reader/books/\(name)", size: size,
        fetchedAt: now.addingTimeInterval(-days * 86_400), validator: "\"v1\"",
        url: "https://www.gutenberg.org/ebooks/\(id)")
    }
    return LibraryScreen(
      rows: [
        .init(
          entry: entry(
            84, "epub", "Frankenstein; Or, The Modern Prometheus",
            "84-frankenstein-or-the-modern-prometheus.epub", 3_087_008, 0), isPresent: true),
        .init(
          entry: entry(
            84, "txt", "Frankenstein; Or, The Modern Prometheus",
            "84-frankenstein-or-the-modern-prometheus.txt", 448_937, 1), isPresent: true),
        .init(
          entry: entry(
            2554, "epub", "Crime and Punishment", "2554-crime-and-punishment.epub", 1_203_522, 9),
          isPresent: false),
      ], timeZone: utc)
  }

  /// The reader on the first page of the sample text, 20 lines high.
  static func reader() throws -> Pager {
    Pager(
      text: BookText(data: try FixtureFiles.data("pg84-sample.txt")),
      title: "Frankenstein; Or, The Modern Prometheus", width: 80, height: 20)
  }

  /// The reader's `toc` for the sample text: the entries of its CONTENTS table found again as
  /// headings.
  static func readerContents() throws -> TableOfContents {
    let text = BookText(data: try FixtureFiles.data("pg84-sample.txt"))
    return TableOfContents(text, in: text.bodyBytes)
  }

  /// Every sample: name, width, screen.
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
      ("error", 100, ErrorLine("cannot reach gutendex.com: connection refused")),
      ("narrow", 60, try narrow()),
      ("progress", 100, progress()),
      ("library", 100, library()),
      ("reader", 80, try reader()),
    ]
  }
}

/// Several screens one after another, for a capture of related lines.
struct Stacked: LineRendering {
  var parts: [any LineRendering]

  func lines(width: Int, style: Style) -> [String] {
    parts.flatMap { $0.lines(width: width, style: style) }
  }
}
