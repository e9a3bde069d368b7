import Foundation
import Gutendex
import Testing

@testable import Catalog
@testable import Terminal

/// The browser's reducer, action by action, with the state checked after each: every command
/// of the command table, the view models' answers, store changes and resizes. No catalogue,
/// no terminal: the reducer is a function of the state and the action.
@Suite struct BrowserReducerTests {
  /// 100 books (four server pages, the last with 4), titled by their place.
  static let books: [Book] = (1...100).map { book(id: 1000 + $0, title: "Book \($0)") }

  static func book(id: Int, title: String) -> Book {
    let json =
      #"{"id":\#(id),"title":"\#(title)","authors":[],"languages":["en"],"#
      + #""download_count":\#(5000 - id),"formats":{},"subjects":[],"bookshelves":[],"#
      + #""copyright":false,"media_type":"Text"}"#
    // The JSON above is fixed and valid: decoding it cannot fail.
    return try! Book.decode(from: Data(json.utf8))
  }

  /// What the list's view model publishes for page `page` of `query`.
  static func page(
    _ page: Int, of query: BookQuery = BookQuery(), total: Int = 100,
    favorites: Set<Int> = []
  ) -> BrowserViewModel.State {
    let first = (page - 1) * 32
    let items = books[first..<min(total, first + 32)].map {
      BrowserViewModel.Item(book: $0, isFavorite: favorites.contains($0.id))
    }
    return BrowserViewModel.State(
      query: query.atPage(page), items: Array(items), totalCount: total,
      load: .loaded(.network), network: .unknown)
  }

  /// A browser at 80x24 (or in a pipe) showing the first rows, drawn with as many rows as fit
  /// (19 at 80x24: a heading, two lines of keys, a line for a notice and the prompt).
  static func started(height: Int? = 24) -> BrowserState {
    var state = BrowserState(window: WindowSize(width: 80, height: height))
    let effects = BrowserReducer.reduce(&state, .command(.goTo(page: 1)))
    #expect(effects == [.loadPage(1)])
    _ = BrowserReducer.reduce(&state, .catalogue(page(1)))
    let rows = BrowserFrame.listRows(state)
    _ = BrowserReducer.reduce(
      &state, .drawn(DrawnLayout(listRows: rows, bodyRows: rows, bodyLines: rows)))
    return state
  }

  static func errors(_ state: BrowserState) -> [String] {
    state.notices.compactMap {
      if case .error(let text) = $0 { return text }
      return nil
    }
  }

  // MARK: - Moving through the list

  @Test func theFirstPageIsLoadedThenShownFromItsFirstRow() {
    let state = Self.started()
    #expect(state.list.top == 0 && state.list.target == nil)
    #expect(state.list.totalCount == 100 && state.list.rows.count == 32)
    #expect(state.screen == .browse)
  }

  @Test func nextMovesByTheRowsShownAcrossTheServersPages() {
    var state = Self.started()
    #expect(BrowserFrame.listRows(state) == 19)
    // Rows 20–38 need page 2 (page 1 ends at 32): the screen moves once it is here.
    #expect(BrowserReducer.reduce(&state, .command(.next)) == [.loadPage(2)])
    #expect(state.list.top == 0 && state.list.target == 19)
    #expect(BrowserReducer.reduce(&state, .catalogue(Self.page(2))).isEmpty)
    #expect(state.list.top == 19 && state.list.target == nil)
    #expect(state.shownBooks.first?.book.title == "Book 20")
    #expect(state.shownBooks.last?.book.title == "Book 38")
    // Rows 39–57 are held: at once.
    #expect(BrowserReducer.reduce(&state, .command(.more)).isEmpty)
    #expect(state.list.top == 38 && state.shownBooks.first?.book.title == "Book 39")
  }

  @Test func inAPipeAScreenIsAServerPage() {
    var state = Self.started(height: nil)
    #expect(BrowserFrame.listRows(state) == 32)
    #expect(BrowserReducer.reduce(&state, .command(.next)) == [.loadPage(2)])
    _ = BrowserReducer.reduce(&state, .catalogue(Self.page(2)))
    #expect(state.list.top == 32)
  }

  @Test func previousAndNextStopAtTheEnds() {
    var state = Self.started(height: nil)
    _ = BrowserReducer.reduce(&state, .command(.previous))
    #expect(Self.errors(state) == ["already on the first page"])
    state.notices = []
    _ = BrowserReducer.reduce(&state, .command(.goTo(page: 4)))
    _ = BrowserReducer.reduce(&state, .catalogue(Self.page(4)))
    #expect(state.list.top == 96)
    _ = BrowserReducer.reduce(&state, .command(.next))
    #expect(Self.errors(state) == [CatalogError.pageOutOfRange(page: 5, pageCount: 4).description])
    #expect(state.list.top == 96)
  }

  @Test func goToChecksThePageAgainstTheCount() {
    var state = Self.started()
    #expect(BrowserReducer.reduce(&state, .command(.goTo(page: 3))) == [.loadPage(3)])
    #expect(state.list.target == 64)
    _ = BrowserReducer.reduce(&state, .command(.goTo(page: 9)))
    #expect(Self.errors(state) == [CatalogError.pageOutOfRange(page: 9, pageCount: 4).description])
    #expect(state.list.target == nil)
  }

  @Test func aFailedPageIsSaidOnceAndTheListStays() {
    var state = Self.started()
    _ = BrowserReducer.reduce(&state, .command(.goTo(page: 2)))
    var failed = Self.page(1)
    failed.load = .failed(.invalidInput("the server said no"))
    #expect(BrowserReducer.reduce(&state, .catalogue(failed)) == [.dismissListError])
    #expect(Self.errors(state) == ["the server said no"])
    #expect(state.list.top == 0 && state.list.target == nil)
  }

  @Test func aTallerWindowLoadsTheRowsItLacks() {
    var state = Self.started()
    let effects = BrowserReducer.reduce(&state, .resized(WindowSize(width: 100, height: 60)))
    #expect(effects == [.loadPage(2)], "rows 1–56 need page 2")
    #expect(state.window == WindowSize(width: 100, height: 60))
    _ = BrowserReducer.reduce(&state, .catalogue(Self.page(2)))
    #expect(state.list.top == 0 && state.list.target == nil, "the first row stays")
    #expect(state.list.items(from: 0, count: BrowserFrame.listRows(state)).count == 56)
  }

  // MARK: - Queries

  @Test(arguments: [
    (PromptCommand.search("twain"), BookQuery(search: "twain")),
    (.languages(["fr"]), BookQuery(languages: ["fr"])),
    (.topic("sea"), BookQuery(topic: "sea")),
    (.years(from: 1800, to: 1900), BookQuery(authorYearStart: 1800, authorYearEnd: 1900)),
    (.copyright([.publicDomain]), BookQuery(copyright: [.publicDomain])),
    (.sort(.ascending), BookQuery(sort: .ascending)),
    (.reset, BookQuery()),
  ])
  func aQueryCommandRunsTheNewQueryAndKeepsTheListUntilItsPageComes(
    command: PromptCommand, query: BookQuery
  ) {
    var state = Self.started()
    _ = BrowserReducer.reduce(&state, .command(.goTo(page: 2)))
    _ = BrowserReducer.reduce(&state, .catalogue(Self.page(2)))
    #expect(BrowserReducer.reduce(&state, .command(command)) == [.runQuery(query)])
    #expect(state.list.top == 32, "the list on screen stays while the query runs")
    #expect(state.nextList?.query == query)
    _ = BrowserReducer.reduce(&state, .catalogue(Self.page(1, of: query, total: 50)))
    #expect(state.list.query == query && state.list.totalCount == 50 && state.list.top == 0)
    #expect(state.nextList == nil)
  }

  @Test func aSearchThatFindsFewAsksWhatWasMeantAndQuoteRunsIt() {
    var state = Self.started()
    let query = BookQuery(search: "miserables")
    _ = BrowserReducer.reduce(&state, .command(.search("miserables")))
    let effects = BrowserReducer.reduce(&state, .catalogue(Self.page(1, of: query, total: 1)))
    #expect(effects == [.suggest(query, found: 1)])
    let proposal = SearchSuggestion(field: .search, value: "misérables", count: 11)
    _ = BrowserReducer.reduce(&state, .suggested(proposal, for: query))
    #expect(state.offered == proposal && state.notices == [.suggestion(proposal)])
    #expect(
      BrowserReducer.reduce(&state, .command(.takeSuggestion))
        == [.runQuery(BookQuery(search: "misérables"))])
  }

  @Test func quoteWithNothingProposedSaysSo() {
    var state = Self.started()
    #expect(BrowserReducer.reduce(&state, .command(.takeSuggestion)).isEmpty)
    #expect(Self.errors(state).first?.hasPrefix("nothing proposed") == true)
  }

  // MARK: - Rows and books

  @Test func aRowNumberOpensThatRowsBook() {
    var state = Self.started()
    _ = BrowserReducer.reduce(&state, .command(.next))
    _ = BrowserReducer.reduce(&state, .catalogue(Self.page(2)))
    let effects = BrowserReducer.reduce(&state, .command(.details(row: 2)))
    #expect(effects == [.openDetail(Self.books[20], .loaded(.network)), .readDownloads(1021)])
    #expect(state.screen == .details(from: .browse))
    _ = BrowserReducer.reduce(&state, .command(.details(row: 20)))
    #expect(Self.errors(state) == [CatalogError.noSuchRow(row: 20, rowCount: 19).description])
  }

  @Test func fTogglesTheRowsBooksOrTheBookShown() {
    var state = Self.started()
    #expect(
      BrowserReducer.reduce(&state, .command(.toggleFavorites(rows: [1, 3])))
        == [.toggleFavorites([Self.books[0], Self.books[2]])])
    _ = BrowserReducer.reduce(&state, .command(.toggleFavorites(rows: [40])))
    #expect(Self.errors(state).count == 1)
    _ = BrowserReducer.reduce(&state, .command(.details(row: 1)))
    _ = BrowserReducer.reduce(
      &state,
      .detail(
        BookDetailViewModel.State(
          book: Self.books[0], isFavorite: false, load: .loaded(.network),
          summaryNeedsNetwork: false)))
    #expect(
      BrowserReducer.reduce(&state, .command(.toggleFavorites(rows: []))) == [.toggleDetailFavorite]
    )
    _ = BrowserReducer.reduce(&state, .command(.links(row: nil)))
    #expect(state.screen == .links(Self.books[0], from: .browse))
    #expect(
      BrowserReducer.reduce(&state, .command(.toggleFavorites(rows: [])))
        == [.toggleFavorite(Self.books[0])])
  }

  @Test func linksDownloadAndReadTakeARowOrTheBookShown() {
    var state = Self.started()
    _ = BrowserReducer.reduce(&state, .command(.links(row: 3)))
    #expect(state.screen == .links(Self.books[2], from: .browse))
    #expect(
      BrowserReducer.reduce(&state, .command(.download(row: nil))) == [.download(Self.books[2])])
    #expect(BrowserReducer.reduce(&state, .command(.read(row: 1))) == [.read(Self.books[0])])
    _ = BrowserReducer.reduce(&state, .command(.back))
    #expect(BrowserReducer.reduce(&state, .command(.read(row: nil))).isEmpty)
    #expect(Self.errors(state) == ["usage: read N (read book N)"])
  }

  @Test func theStoresChangesAreReadForTheRowsHeld() {
    var state = Self.started()
    let effects = BrowserReducer.reduce(&state, .favoritesChanged)
    #expect(effects == [.readFlags(Self.books[0..<32].map(\.id))])
    _ = BrowserReducer.reduce(&state, .flags([1002: true]))
    #expect(state.shownBooks[1].book.id == 1002)
    #expect(state.list.rows[1]?.isFavorite == true)
  }

  // MARK: - Screens

  @Test func screensOpenWithTheirEffects() {
    var state = Self.started()
    #expect(BrowserReducer.reduce(&state, .command(.favorites)) == [.loadFavorites])
    #expect(state.screen == .favorites)
    #expect(
      BrowserReducer.reduce(&state, .command(.removeFavorites(rows: [2]))) == [
        .removeFavorites(rows: [2])
      ])
    #expect(
      BrowserReducer.reduce(&state, .command(.favoritesOrder(.title))) == [.favoritesOrder(.title)])
    #expect(BrowserReducer.reduce(&state, .command(.refresh)) == [.refreshFavorites])
    #expect(BrowserReducer.reduce(&state, .command(.status)) == [.refreshStatus])
    #expect(state.screen == .status)
    #expect(BrowserReducer.reduce(&state, .command(.refresh)) == [.refreshStatus])
    #expect(BrowserReducer.reduce(&state, .command(.help)).isEmpty)
    #expect(state.screen == .help)
    _ = BrowserReducer.reduce(&state, .command(.back))
    #expect(state.screen == .browse)
    _ = BrowserReducer.reduce(&state, .command(.removeFavorites(rows: [1])))
    #expect(Self.errors(state) == ["rm works on the favourites screen: type F first"])
  }

  @Test func backGoesToTheListTheScreenCameFrom() {
    var state = Self.started()
    _ = BrowserReducer.reduce(&state, .command(.favorites))
    state.favorites = FavoritesViewModel.State(
      favorites: [Favorite(book: Self.books[4], addedAt: Date(timeIntervalSince1970: 0))],
      order: .newest, count: 1, page: 1, lastRefreshed: nil, load: .loaded(.network),
      notice: nil)
    _ = BrowserReducer.reduce(&state, .command(.details(row: 1)))
    #expect(state.screen == .details(from: .favorites))
    #expect(BrowserReducer.reduce(&state, .command(.back)) == [.loadFavorites])
    #expect(state.screen == .favorites)
    _ = BrowserReducer.reduce(&state, .command(.back))
    #expect(state.screen == .browse)
  }

  @Test func enterShowsTheRestOfATallScreenThenGoesBack() {
    var state = Self.started()
    _ = BrowserReducer.reduce(&state, .command(.help))
    _ = BrowserReducer.reduce(
      &state, .drawn(DrawnLayout(listRows: nil, bodyRows: 20, bodyLines: 34)))
    _ = BrowserReducer.reduce(&state, .command(.more))
    #expect(state.scroll == 20 && state.screen == .help)
    _ = BrowserReducer.reduce(
      &state, .drawn(DrawnLayout(listRows: nil, bodyRows: 20, bodyLines: 34)))
    _ = BrowserReducer.reduce(&state, .command(.previous))
    #expect(state.scroll == 0)
    _ = BrowserReducer.reduce(&state, .command(.more))
    _ = BrowserReducer.reduce(&state, .command(.more))
    #expect(state.screen == .browse, "Enter past the end goes back")
  }

  @Test func commandsForTheCatalogueAreEffects() {
    var state = Self.started()
    #expect(BrowserReducer.reduce(&state, .command(.sync)) == [.sync])
    #expect(
      BrowserReducer.reduce(&state, .command(.new(.lastSync, all: true)))
        == [.new(.lastSync, all: true, languages: [])])
    #expect(BrowserReducer.reduce(&state, .command(.grep("whale"))) == [.grep("whale")])
    #expect(BrowserReducer.reduce(&state, .command(.offline(true))) == [.offline(true)])
    #expect(
      BrowserReducer.reduce(&state, .command(.export(path: "f.json"))) == [.export(path: "f.json")])
    #expect(
      BrowserReducer.reduce(&state, .command(.importFile(path: "f.json"))) == [
        .importFile("f.json")
      ])
    #expect(BrowserReducer.reduce(&state, .command(.refresh)) == [.reloadList])
    #expect(state.list.rows.isEmpty && state.list.target == 0)
    #expect(BrowserReducer.reduce(&state, .command(.quit)).isEmpty && state.quit)
  }

  @Test func drawingClearsTheNotices() {
    var state = Self.started()
    _ = BrowserReducer.reduce(&state, .said("Added to favourites: Book 1"))
    _ = BrowserReducer.reduce(&state, .failed("no"))
    #expect(state.notices == [.info("Added to favourites: Book 1"), .error("no")])
    _ = BrowserReducer.reduce(&state, .drawn(nil))
    #expect(state.notices.isEmpty)
  }

  /// Every command of the table changes the state or names an effect: none is ignored.
  @Test func everyCommandOfTheTableDoesSomething() throws {
    let parser = PromptParser()
    let lines = [
      "", "n", "p", "g 2", "3", "links 2", "f 2", "d 2", "read 2", "send 2 /media/KOBOeReader",
      "grep whale", "/ whale", "'",
      "lang fr", "topic sea", "years 1800 1900", "copyright no", "sort ascending", "reset", "r",
      "F", "export", "import x.json", "offline on", "s", "sync", "new", "b", "?", "q",
    ]
    var named = Set<String>()
    for line in lines {
      let (spec, _, _) = PromptParser.match(line)
      if let spec { named.formUnion(spec.names) }
      var state = Self.started()
      let before = state
      let command = try parser.parse(line, context: .browse)
      let effects = BrowserReducer.reduce(&state, .command(command))
      #expect(!effects.isEmpty || state != before, "'\(line)' did nothing")
    }
    let tableNames = Set(CommandTable.all.flatMap(\.names)).subtracting(["rm", "remove", "del"])
    #expect(tableNames.isSubset(of: named), "not tried: \(tableNames.subtracting(named))")
  }
}
