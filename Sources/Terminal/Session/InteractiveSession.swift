import Catalog
import Foundation
import Gutendex

/// The interactive browser: reads one command at a time, runs it on the view models, and draws
/// the screen it leads to. A bad line prints one helpful sentence and changes nothing.
@MainActor
public final class InteractiveSession {
  /// The screen on display; it decides what some keys mean (Enter, `b`, numbers, `sort`).
  public enum Screen: Sendable, Hashable {
    case browse, details, links, favorites, status, help
  }

  /// The catalogue every view model of the session shares.
  public let service: CatalogService
  /// The book list.
  public let browser: BrowserViewModel
  /// The favourites screen.
  public let favorites: FavoritesViewModel
  /// The status screen.
  public let status: StatusViewModel
  /// The details screen's view model, while a book is open.
  public private(set) var detail: BookDetailViewModel?
  /// The book whose links are shown, on the links screen.
  public private(set) var linksBook: Book?
  /// The screen the user is on.
  public private(set) var screen: Screen = .browse
  let output: TerminalOutput
  /// Download and read, when the app provides them.
  public var bookActions: BookActions?
  let parser = PromptParser()
  let now: @Sendable () -> Date

  /// A session over `service`, drawing on `output`, starting on the first page of `query`.
  public init(
    service: CatalogService, output: TerminalOutput, query: BookQuery = BookQuery(),
    prefetch: Bool = true, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.service = service
    self.output = output
    self.now = now
    browser = BrowserViewModel(service: service, query: query, prefetchEnabled: prefetch)
    favorites = FavoritesViewModel(service: service)
    status = StatusViewModel(service: service)
  }

  /// Loads the first page and draws it.
  public func start() async {
    await browser.load()
    await showBrowser()
  }

  /// Handles one input line; returns false when the session should end.
  public func handle(_ line: String) async -> Bool {
    let command: PromptCommand
    do {
      command = try parser.parse(line, context: parserContext)
    } catch {
      output.print(errorLine(error.message))
      return true
    }
    return await execute(command)
  }

  /// A short description of what a command is waiting for, for the progress line.
  public func progressText(for line: String) -> String {
    guard let command = try? parser.parse(line, context: parserContext) else { return "working…" }
    switch command {
    case .next, .previous, .goTo, .search, .languages, .topic, .years, .copyright, .sort, .reset:
      return "loading…"
    case .refresh: return screen == .favorites ? "refreshing favourites…" : "refreshing…"
    case .status: return "checking the server…"
    default: return "working…"
    }
  }

  var parserContext: PromptParser.Context {
    switch screen {
    case .browse: .browse
    case .details: .details
    case .links: .links
    case .favorites: .favorites
    case .status: .status
    case .help: .help
    }
  }

  // MARK: - Commands

  func execute(_ command: PromptCommand) async -> Bool {
    switch command {
    case .quit:
      return false
    case .next:
      if screen == .favorites { return await pageFavorites(by: 1) }
      await browse { await $0.next() }
    case .previous:
      if screen == .favorites { return await pageFavorites(by: -1) }
      await browse { await $0.previous() }
    case .goTo(let page):
      if screen == .favorites {
        await favorites.goTo(page: page)
        await showFavorites()
      } else {
        await browse { await $0.goTo(page: page) }
      }
    case .details(let row):
      await openDetails(row: row)
    case .toggleFavorites(let rows):
      await toggle(rows: rows)
    case .favorites:
      await favorites.reload()
      screen = .favorites
      await showFavorites()
    case .removeFavorites(let rows):
      guard screen == .favorites else {
        output.print(errorLine("rm works on the favourites screen: type F first"))
        return true
      }
      await favorites.remove(rows: rows)
      await showFavorites()
    case .favoritesOrder(let order):
      await favorites.setOrder(FavoriteOrder(rawValue: order) ?? .newest)
      await showFavorites()
    case .search(let text):
      await changeQuery { $0.search = text }
    case .languages(let codes):
      await changeQuery { $0.languages = codes }
    case .topic(let topic):
      await changeQuery { $0.topic = topic }
    case .years(let from, let to):
      await changeQuery {
        $0.authorYearStart = from
        $0.authorYearEnd = to
      }
    case .copyright(let values):
      await changeQuery { $0.copyright = values }
    case .sort(let sort):
      await changeQuery { $0.sort = sort }
    case .reset:
      await changeQuery { $0 = BookQuery() }
    case .refresh:
      await refresh()
    case .links(let row):
      openLinks(row: row)
    case .download(let row):
      await act(row: row, usage: "d N (download book N)") { actions, book in
        if await actions.download(book) != nil, self.screen == .details {
          await self.showDetails()
        }
      }
    case .read(let row):
      await act(row: row, usage: "read N (read book N)") { actions, book in
        await actions.read(book)
        await self.redraw()
      }
    case .offline(let on):
      service.simulateOffline(on)
      output.print(
        noticeLine(
          on
            ? "Offline simulation on: pages come from the cache or the local catalogue."
            : "Offline simulation off: pages come from the server again (r to reload)."))
    case .export(let path):
      await export(to: path)
    case .importFile(let path):
      await importFile(path)
    case .status:
      await status.refresh(probe: true)
      screen = .status
      output.print(statusLines())
    case .help:
      screen = .help
      output.print(helpLines())
    case .back:
      screen = .browse
      await showBrowser()
    }
    return true
  }

  private func browse(_ action: (BrowserViewModel) async -> Void) async {
    screen = .browse
    await action(browser)
    await showBrowser()
  }

  private func changeQuery(_ change: (inout BookQuery) -> Void) async {
    var query = browser.current.query
    change(&query)
    await browse { await $0.setQuery(query) }
  }

  private func refresh() async {
    switch screen {
    case .favorites:
      await favorites.refresh()
      await browser.reloadFavoriteFlags()
      await showFavorites()
    case .status:
      await status.refresh(probe: true)
      output.print(statusLines())
    case .details:
      if let detail, let id = detail.current.book?.id {
        await detail.load(id: id)
        await showDetails()
      }
    default:
      await browse { await $0.refresh() }
    }
  }

  private func pageFavorites(by delta: Int) async -> Bool {
    await favorites.goTo(page: favorites.current.page + delta)
    await showFavorites()
    return true
  }

  /// The book in row `row` of the list on screen (favourites or browse).
  private func book(atRow row: Int) -> (book: Book, load: LoadState)? {
    if screen == .favorites || (screen != .browse && previousList == .favorites) {
      let list = favorites.current.favorites
      guard (1...max(list.count, 1)).contains(row), !list.isEmpty else {
        output.print(errorLine(CatalogError.noSuchRow(row: row, rowCount: list.count).description))
        return nil
      }
      let favorite = list[row - 1]
      return (favorite.book, .loaded(.favorite(savedAt: favorite.refreshedAt ?? favorite.addedAt)))
    }
    let items = browser.current.items
    guard (1...max(items.count, 1)).contains(row), !items.isEmpty else {
      output.print(errorLine(CatalogError.noSuchRow(row: row, rowCount: items.count).description))
      return nil
    }
    return (items[row - 1].book, browser.current.load)
  }

  /// The list the user came from, so `N` on a details screen still means that list's row.
  private var previousList: Screen = .browse

  private func openDetails(row: Int) async {
    if screen == .favorites || screen == .browse { previousList = screen }
    guard let (book, load) = book(atRow: row) else { return }
    let model = await BookDetailViewModel(service: service, book: book, source: load)
    detail = model
    screen = .details
    await showDetails()
  }

  /// Runs a book action on row `row`'s book, or on the book shown when no row is given.
  private func act(
    row: Int?, usage: String, _ body: (BookActions, Book) async -> Void
  ) async {
    guard let actions = bookActions else {
      output.print(errorLine("downloading is not available here"))
      return
    }
    let book: Book
    if let row {
      guard let found = self.book(atRow: row) else { return }
      book = found.book
    } else if let shown = detail?.current.book, screen == .details || screen == .links {
      book = shown
    } else {
      output.print(errorLine("usage: \(usage)"))
      return
    }
    await body(actions, book)
  }

  /// Draws the current screen again (after the pager).
  private func redraw() async {
    switch screen {
    case .details: await showDetails()
    case .favorites: await showFavorites()
    case .links: if let linksBook { output.print(linksLines(linksBook)) }
    default: await showBrowser()
    }
  }

  private func openLinks(row: Int?) {
    if screen == .favorites || screen == .browse { previousList = screen }
    let book: Book
    if let row {
      guard let found = self.book(atRow: row) else { return }
      book = found.book
    } else if let shown = detail?.current.book, screen == .details || screen == .links {
      book = shown
    } else {
      output.print(errorLine("usage: links N (download links of row N)"))
      return
    }
    linksBook = book
    screen = .links
    output.print(linksLines(book))
  }

  private func toggle(rows: [Int]) async {
    switch screen {
    case .details, .links:
      guard let detail, rows.isEmpty || rows == [1] || screen == .links else {
        return await toggleList(rows: rows)
      }
      await detail.toggleFavorite()
      await browser.reloadFavoriteFlags()
      if let error = detail.current.load.error {
        output.print(errorLine(error.description))
      } else if let book = detail.current.book {
        output.print(noticeLine(favoriteNotice(book.title, added: detail.current.isFavorite)))
      }
    case .favorites:
      await favorites.remove(rows: rows)
      await browser.reloadFavoriteFlags()
      await showFavorites()
    default:
      await toggleList(rows: rows)
    }
  }

  private func toggleList(rows: [Int]) async {
    screen = .browse
    let before = Dictionary(
      browser.current.items.map { ($0.id, $0.isFavorite) }, uniquingKeysWith: { first, _ in first })
    await browser.toggleFavorites(rows: rows)
    if let error = browser.current.load.error {
      output.print(errorLine(error.description))
      browser.dismissError()
      return
    }
    await showBrowser()
    let changed = browser.current.items.filter { before[$0.id] != $0.isFavorite }
    if changed.count == 1, let item = changed.first {
      output.print(noticeLine(favoriteNotice(item.book.title, added: item.isFavorite)))
    } else if !changed.isEmpty {
      let added = changed.filter(\.isFavorite).count
      output.print(
        noticeLine(
          "Favourites: \(added) added, \(changed.count - added) removed."))
    }
  }

  private func favoriteNotice(_ title: String, added: Bool) -> String {
    let shown = Sanitizer.sanitize(title)
    let short = DisplayWidth.truncate(shown, toCells: 60)
    return added ? "Added to favourites: \(short)" : "Removed from favourites: \(short)"
  }

  private func export(to path: String?) async {
    let file = URL(
      fileURLWithPath: path ?? "gutenberg-favorites-\(TextFormat.date(now(), timeZone: .gmt)).json")
    do {
      try await favorites.export(to: file)
      let count = (try? await service.favoritesSummary().count) ?? 0
      output.print(exportLines(count: count, path: file.path))
    } catch {
      output.print(errorLine(error.description))
    }
  }

  private func importFile(_ path: String) async {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      output.print(errorLine("cannot read \(path): \(Self.reason(error))"))
      return
    }
    do {
      try await favorites.importDocument(data, source: path)
      await browser.reloadFavoriteFlags()
      if let notice = favorites.current.notice { output.print(noticeLine(notice)) }
    } catch {
      output.print(errorLine(error.description))
    }
  }

  static func reason(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain,
      let code = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(code.rawValue))
    }
    if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError {
      return "no such file"
    }
    return nsError.localizedDescription
  }

  // MARK: - Drawing

  private func showBrowser() async {
    let state = browser.current
    if let error = state.load.error {
      output.print(errorLine(error.description))
      browser.dismissError()
      return
    }
    output.print(browseLines())
  }

  private func showFavorites() async {
    let state = favorites.current
    if let error = state.load.error {
      output.print(errorLine(error.description))
      await favorites.reload()
      return
    }
    output.print(favoritesLines())
  }

  private func showDetails() async {
    guard let detail else { return }
    if let error = detail.current.load.error {
      output.print(errorLine(error.description))
      return
    }
    var downloads: [String] = []
    if let id = detail.current.book?.id, let actions = bookActions {
      downloads = await actions.downloads(id)
    }
    output.print(detailLines(detail.current, downloads: downloads))
  }
}
