import Catalog
import Foundation
import Gutendex
import Testing

@testable import Terminal

@Suite struct RenderingTests {
  static let widths = [40, 60, 80, 100, 132]

  /// Every screen: the fixture captures plus the hostile ones.
  static func everyScreen() throws -> [(name: String, screen: any LineRendering)] {
    try SampleScreens.all().map { ($0.name, $0.screen) } + HostileData.screens
  }

  /// A line may pass the width only when it is a bare URL (kept whole so it can be copied).
  static func isBareURL(_ line: String) -> Bool {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    return trimmed.hasPrefix("https://") && !trimmed.contains(" ")
  }

  @Test(arguments: widths)
  func everyLineFitsTheWidth(width: Int) throws {
    for (name, screen) in try Self.everyScreen() {
      for style in [Style.plain, Style(isEnabled: true)] {
        for line in screen.lines(width: width, style: style) {
          let plain = RenderChecks.strippingStyle(line)
          let cells = DisplayWidth.cells(plain)
          #expect(
            cells <= width || Self.isBareURL(plain),
            "\(name) at \(width): \(cells) cells: \(plain)")
          #expect(!plain.hasSuffix(" "), "\(name) at \(width): trailing space: \(plain)")
        }
      }
    }
  }

  @Test(arguments: widths)
  func hostileTextNeverReachesTheTerminal(width: Int) {
    for (name, screen) in HostileData.screens {
      for line in screen.lines(width: width, style: .plain) {
        #expect(!RenderChecks.hasForbiddenScalar(line), "\(name): \(line.debugDescription)")
      }
      for line in screen.lines(width: width, style: Style(isEnabled: true)) {
        #expect(RenderChecks.hasOnlyOwnStyleCodes(line), "\(name): \(line.debugDescription)")
      }
    }
  }

  @Test func colourCodesOnlyWhenEnabled() throws {
    for (name, screen) in try Self.everyScreen() {
      let plain = screen.text(width: 100, style: .plain)
      #expect(!plain.contains("\u{1B}"), "\(name) has an escape without colour")
      let styled = screen.text(width: 100, style: Style(isEnabled: true))
      #expect(RenderChecks.strippingStyle(styled) == plain, "\(name) differs beyond colour")
    }
    let browse = try SampleScreens.browse().text(width: 100, style: Style(isEnabled: true))
    #expect(browse.contains("\u{1B}[33m*\u{1B}[0m"))
  }

  @Test(arguments: [40, 80, 100, 132])
  func columnsLineUpWithCJKCyrillicAndArabicTitles(width: Int) throws {
    var books = try Fixtures.page("zh__page_1").results.prefix(6).map { $0 }
    books += try Fixtures.page("ru__page_1").results.prefix(4)
    books += try Fixtures.page("ja__page_1").results.prefix(4)
    books.append(
      Book(
        id: 1, title: "كتاب الأغاني — Kitāb al-Aghānī", authors: [Person(name: "الأصفهاني")],
        languages: ["ar"], downloadCount: 12))
    let rows = SampleScreens.rows(books)
    let lines = BookTable.lines(
      rows: rows, marks: rows.map { _ in " " }, width: width, style: .plain)
    #expect(lines.count == books.count)
    // The last column (downloads, or languages when too narrow for downloads) ends every
    // line at the same cell, or starts at the same cell.
    if width >= 80 {
      let ends = Set(lines.map(DisplayWidth.cells))
      #expect(ends.count == 1, "line ends at \(ends.sorted())")
    } else {
      let starts = lines.enumerated().map { index, line in
        let range = line.range(of: "  " + rows[index].languageText, options: .backwards)
        return range.map { DisplayWidth.cells(String(line[..<$0.lowerBound])) } ?? -1
      }
      #expect(Set(starts).count == 1, "languages start at \(starts)")
    }
    // The author column starts at the same cell on every line.
    let starts = lines.enumerated().map { index, line in
      let author = Sanitizer.sanitize(rows[index].shortAuthorText)
      let prefix = String(author.prefix(4))
      let range = line.range(of: "  " + prefix)
      return range.map { DisplayWidth.cells(String(line[..<$0.lowerBound])) } ?? -1
    }
    #expect(Set(starts).count == 1, "author starts at \(starts)")
  }

  @Test func browseHeaderAndBanner() throws {
    let lines = try SampleScreens.offlineCached().lines(width: 100, style: .plain)
    #expect(lines[0] == "lang ru · sort popular · page 1 of 1 · 9 books")
    #expect(lines[1] == "offline — showing cached page from 5 min ago")
    // Why the server was not used, under the banner.
    #expect(lines[2] == "(connection refused)")
    #expect(lines[3].hasPrefix("  1   1001 задача"))
    let live = try SampleScreens.browse().lines(width: 100, style: .plain)
    #expect(live[0] == "all books · page 1 of 2,409 · 77,080 books")
    #expect(live[1].hasPrefix("  1 * Frankenstein"))
    #expect(live.last == BrowseScreen.defaultHints.joined(separator: " · "))
  }

  static let now = SampleScreens.now
  static let embedded = PageSource.local(name: "embedded catalogue of 2025-08")

  @Test(arguments: [
    (Provenance.network, nil as String?),
    (Provenance(.cache(fetchedAt: now.addingTimeInterval(-7_200))), "cached page from 2 h ago"),
    (Provenance(embedded), "embedded catalogue of 2025-08"),
    (
      Provenance(.cache(fetchedAt: now.addingTimeInterval(-300)), fallbackReason: "timed out"),
      "offline — showing cached page from 5 min ago"
    ),
    (
      Provenance(embedded, fallbackReason: "connection refused"),
      "offline — embedded catalogue of 2025-08"
    ),
  ])
  func bannersSayWhereThePageCameFrom(provenance: Provenance, banner: String?) {
    #expect(ProvenanceText.banner(provenance, now: Self.now) == banner)
    let screen = BrowseScreen(
      query: "", page: 1, pageCount: 1, totalCount: 0, provenance: provenance, now: Self.now,
      rows: [])
    let lines = screen.lines(width: 80, style: .plain)
    #expect(lines[0] == "all books · no books")
    #expect(lines.contains("No books match. Try `reset`."))
    #expect(lines.contains(banner ?? "no banner") == (banner != nil))
  }

  @Test func queryHeaderDropsWholeFiltersWhenNarrow() {
    let screen = BrowseScreen(
      query: "search \"a very long search indeed\" · lang en,fr,de · sort descending", page: 12,
      pageCount: 2_397, totalCount: 76_696, rows: [])
    #expect(
      screen.lines(width: 80, style: .plain)[0]
        == "search \"a very long search indeed\" … · page 12 of 2,397 · 76,696 books")
    // At 60 even the first filter is too long, so it is cut.
    #expect(
      screen.lines(width: 60, style: .plain)[0]
        == "search \"a very long searc… · page 12 of 2,397 · 76,696 books")
  }

  @Test func summarisesQueries() {
    #expect(BrowseScreen.summary(of: BookQuery()) == "all books")
    #expect(BrowseScreen.summary(of: BookQuery(sort: .ascending)) == "all books · sort ascending")
    #expect(
      BrowseScreen.summary(of: BookQuery(search: "dickens", languages: ["en", "fr"]))
        == "search \"dickens\" · lang en,fr · sort popular")
    #expect(
      BrowseScreen.summary(
        of: BookQuery(
          topic: "war", authorYearStart: -800, authorYearEnd: 1900, copyright: [.publicDomain]))
        == "topic \"war\" · authors 800 BC–1900 · copyright public domain · sort popular")
  }

  @Test func narrowListingCutsTheLongestTitle() throws {
    let lines = try SampleScreens.narrow().lines(width: 60, style: .plain)
    let long = try #require(lines.first { $0.contains("The Golden Wheel") })
    #expect(long.contains("…"))
    #expect(DisplayWidth.cells(long) <= 60)
    #expect(lines.contains { $0.contains("羅生門") })
  }

  @Test func detailsShowEveryField() throws {
    let lines = try SampleScreens.details().lines(width: 100, style: .plain)
    let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    #expect(lines[0] == "Crime and Punishment")
    for expected in [
      "Author:       Dostoyevsky, Fyodor (1821–1881)",
      "Translator:   Garnett, Constance (1861–1946)",
      "Copyright:    public domain in the USA", "Downloads:    37,543", "Formats:      7",
      "Favourite:    yes (*)", "Id:           2554",
      "URL:          https://www.gutenberg.org/ebooks/2554",
      "Subjects:     Crime -- Psychological aspects -- Fiction",
      "              Murder -- Fiction", "Summary:",
    ] {
      #expect(lines.contains(expected), "missing \(expected)")
    }
    #expect(text.contains("(This is an automatically generated summary.)"))
  }

  @Test func rowsShowMediaTypesOtherThanText() throws {
    let lines = try SampleScreens.searchResults().lines(width: 100, style: .plain)
    #expect(lines[1].hasPrefix("  1 * Great Expectations  "))
    #expect(lines[2].hasPrefix("  2   [Sound] Great Expectations  "))
  }

  @Test func narrowListingsDropColumnsLeastUsefulFirst() throws {
    let browse = try SampleScreens.browse()
    let wide = browse.lines(width: 100, style: .plain)
    #expect(wide[1].hasSuffix("en  195,270"))
    let narrow = browse.lines(width: 40, style: .plain)
    // Too narrow for the query and the position on one line: two lines.
    #expect(Array(narrow[0...1]) == ["all books", "page 1 of 2,409 · 77,080 books"])
    #expect(!narrow[2].contains("195,270"))
    #expect(narrow[2].hasPrefix("  1 * Frankenstein"))
    #expect(narrow[2].contains("Shelley"))
    let favorites = try SampleScreens.favorites().lines(width: 40, style: .plain)
    #expect(favorites.contains { $0.hasPrefix("  4 ! The Golden") })
  }

  @Test func detailsExplainAMissingSummary() throws {
    var book = try Fixtures.book(2554, in: "e4-2025-page1")
    book.summaries = nil
    book.authors = []
    book.copyright = true
    let offline = DetailScreen(
      book: book, summaryNeedsNetwork: true,
      provenance: Provenance(Self.embedded, fallbackReason: "connection refused")
    )
    .lines(width: 80, style: .plain)
    #expect(offline.contains("Summary:      needs the network (embedded catalogue has none)"))
    #expect(offline.contains("Author:       unknown"))
    #expect(offline.contains("Copyright:    copyrighted in the USA"))
    #expect(offline.contains("Favourite:    no"))
    #expect(offline[1] == "offline — embedded catalogue of 2025-08")
    let online = DetailScreen(book: book).lines(width: 80, style: .plain)
    #expect(online.contains("Summary:      none"))
  }

  @Test func detailsWrapTheLongestTitle() throws {
    let book = try Fixtures.book(60045, in: "en__page_87")
    #expect(book.title.count == 958)
    let lines = DetailScreen(book: book).lines(width: 80, style: .plain)
    let titleLines = lines.prefix { !$0.hasPrefix("Author:") }
    #expect(titleLines.count >= 12)
    #expect(titleLines.joined(separator: " ") == Sanitizer.sanitize(book.title))
  }

  @Test func linksComeInReadingOrder() throws {
    let screen = try SampleScreens.links()
    let mimes = screen.sortedFormats.map(\.mime)
    #expect(mimes.count == 13)
    #expect(mimes.first == "application/epub+zip")
    #expect(Array(mimes[1...2]) == ["text/html", "text/html; charset=utf-8"])
    #expect(mimes[3].hasPrefix("text/plain") && mimes[5].hasPrefix("text/plain"))
    #expect(mimes[6] == "application/x-mobipocket-ebook")
    #expect(Array(mimes[7...]) == Array(mimes[7...]).sorted())
    let lines = screen.lines(width: 100, style: .plain)
    for (_, url) in screen.sortedFormats {
      #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == url }, "\(url) cut")
    }
  }

  @Test func linksSideBySideWhenWideEnough() throws {
    let screen = try SampleScreens.links()
    let lines = screen.lines(width: 132, style: .plain)
    #expect(lines[1].hasPrefix("  application/epub+zip  "))
    #expect(lines[1].hasSuffix("https://www.gutenberg.org/ebooks/24746.epub3.images"))
    let noFiles = try Fixtures.book(77_279, in: "en__page_1835")
    #expect(noFiles.formats.isEmpty)
    let empty = LinksScreen(book: noFiles).lines(width: 80, style: .plain)
    #expect(empty[0].hasPrefix("Links for 77279 · 0 formats · "))
    #expect(empty.contains("No download links for this book."))
  }

  @Test func favouritesMarkMissingBooksInText() throws {
    let lines = try SampleScreens.favorites().lines(width: 100, style: .plain)
    #expect(lines[0] == "Favourites · 7 books · newest first")
    #expect(lines.contains { $0.hasPrefix("  4 ! The Golden Wheel") })
    #expect(lines.contains("! no longer in the catalogue (kept as saved)"))
    #expect(lines[1].hasSuffix("2026-11-21"))
    let empty = FavoritesScreen(order: .title, rows: []).lines(width: 80, style: .plain)
    #expect(empty[0] == "Favourites · 0 books · by title")
  }

  @Test func statusListsRequests() {
    let lines = SampleScreens.status().lines(width: 100, style: .plain)
    #expect(lines.contains("Reachable:   yes (checked 1 min ago)"))
    #expect(lines.contains("Cache:       48 pages · 1.2 MiB · oldest 2 days ago"))
    #expect(lines.contains("Favourites:  7 books · refreshed 3 h ago"))
    let request = lines.first { $0.contains("/books/2554/") }
    #expect(request == "  06:28:25  HTTP 200     412 ms  network  GET  /books/2554/")
    // A failure says `error` in the row and its reason under it.
    let failed = lines.firstIndex { $0.contains("/books/?languages=ru") }
    #expect(failed.map { lines[$0].hasPrefix("  06:20:00  error") } == true, "\(lines)")
    #expect(failed.map { lines[$0 + 1] } == "            timed out after 10 s", "\(lines)")
  }

  @Test func errorLines() throws {
    // The messages production prints after `error:` (what the app says, not a copy of it).
    let url = try #require(URL(string: "https://gutendex.com/books/?page=2"))
    #expect(
      ErrorLine(GutendexError.unreachable(url: url, reason: "connection refused").description)
        .text == "error: cannot reach gutendex.com: connection refused")
    #expect(
      ErrorLine(CatalogError.pageOutOfRange(page: 2, pageCount: 1).description).text
        == "error: page 2 is out of range (there is only page 1)")
    #expect(throws: PromptParser.Failure(message: "unknown command 'xyz' — type ? for help")) {
      try PromptParser().parse("xyz")
    }
    let wrapped = ErrorLine(String(repeating: "word ", count: 30)).lines(width: 40, style: .plain)
    #expect(wrapped.count > 1)
    #expect(wrapped[0].hasPrefix("error: word"))
    #expect(wrapped.dropFirst().allSatisfy { $0.hasPrefix("       word") })
  }

  @Test func exportConfirmation() {
    #expect(
      ExportConfirmation(count: 12, path: "/path/file.json").text
        == "Exported 12 favourites to /path/file.json")
    #expect(ExportConfirmation(count: 1, path: "f.json").text == "Exported 1 favourite to f.json")
  }
}
