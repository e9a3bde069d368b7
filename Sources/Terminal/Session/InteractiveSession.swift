import Catalog
import Foundation
import Gutendex

/// The interactive browser: reads one command at a time, runs it on the view models, and draws
/// the screen it leads to. A bad line prints one helpful sentence and changes nothing.
///
/// Drawing has one path: the session observes the view model of the screen on display
/// (``ObservableState``; the token lives as long as the screen) and draws from the states it
/// hears. Changes made while a command runs are drawn once, when it ends (a page, not every
/// step of loading it); a change that arrives between commands is drawn at once.
@MainActor
package final class InteractiveSession {
  /// The catalogue every view model of the session shares.
  package let service: CatalogService
  /// The book list.
  package let browser: BrowserViewModel
  /// The favourites screen.
  package let favorites: FavoritesViewModel
  /// The status screen.
  package let status: StatusViewModel
  /// The details screen's view model, while a book is open.
  package private(set) var detail: BookDetailViewModel?
  /// The screen the user is on.
  package private(set) var screen: Screen = .browse
  let output: TerminalOutput
  /// Download and read, when the app provides them.
  package var bookActions: BookActions?
  /// Reads prompt lines; `lang` resolves codes against this session's local catalogue.
  let parser: PromptParser
  let now: @Sendable () -> Date
  /// The time zone dates are shown in (the user's own; fixed for the captures in `Screens/`).
  let timeZone: TimeZone
  /// The subscription to the view model of the screen on display.
  private var observation: ObservationToken?
  /// The latest state heard, not drawn yet.
  private var heard: ScreenState?
  /// The state last drawn on this screen; nil right after entering it.
  private var drawn: ScreenState?
  /// A load was seen since the last drawing, so the result is drawn even if it is unchanged.
  private var reloaded = false
  /// Draw the screen again when the command ends (after the pager, after a download).
  private var redrawRequested = false
  /// True while a command runs: what is heard meanwhile is drawn when it ends.
  private var isRunningCommand = false
  /// The downloads of the book on the details screen, read when it is drawn.
  private var detailDownloads: [String] = []
  /// What the command says about its outcome, printed after the screen it changed.
  var notices: [String] = []
  /// Called before and after a drawing no command asked for (see ``hear(_:)``); the runner
  /// ends the prompt's line before it and writes the prompt again after it.
  package var idleDraw: (before: @MainActor () -> Void, after: @MainActor () -> Void)?
  /// What the embedded catalogue proposes for a search that finds few books; nil: no offers.
  package var suggest: Suggester?
  /// The proposal the last "did you mean" line offered, run by `'`.
  var offered: SearchSuggestion?

  /// A session over `service`, drawing on `output`, starting on the first page of `query`.
  package init(
    service: CatalogService, output: TerminalOutput, query: BookQuery = BookQuery(),
    prefetch: Bool = true, now: @escaping @Sendable () -> Date = { Date() },
    timeZone: TimeZone = .current
  ) {
    self.service = service
    self.output = output
    self.now = now
    self.timeZone = timeZone
    parser = PromptParser(catalogueLanguages: { [service] in service.localLanguageCodes })
    browser = BrowserViewModel(service: service, query: query, prefetchEnabled: prefetch)
    favorites = FavoritesViewModel(service: service)
    status = StatusViewModel(service: service)
  }

  /// Loads the first page and draws it.
  package func start() async {
    await command {
      enter(.browse)
      await browser.load()
      await offerSuggestion()
    }
  }

  /// Handles one input line; returns false when the session should end.
  package func handle(_ line: String) async -> Bool {
    let parsed: PromptCommand
    do {
      parsed = try parser.parse(line, context: screen)
    } catch {
      output.print(errorLine(error.message))
      return true
    }
    var keepGoing = true
    await command { keepGoing = await execute(parsed) }
    return keepGoing
  }

  /// A short description of what a command is waiting for, for the progress line.
  package func progressText(for line: String) -> String {
    parser.progressText(for: line, on: screen)
  }

  /// Runs one command, then draws what it changed, once.
  private func command(_ body: () async -> Void) async {
    isRunningCommand = true
    await body()
    isRunningCommand = false
    if case .details = screen, redrawRequested || heard != drawn {
      await readDetailDownloads()
    }
    draw()
    redrawRequested = false
    for notice in notices { output.print(noticeLine(notice)) }
    notices.removeAll()
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
        redrawRequested = true
        await favorites.goTo(page: page)
      } else {
        await browse { await $0.goTo(page: page) }
      }
    case .details(let row):
      await openDetails(row: row)
    case .toggleFavorites(let rows):
      await toggle(rows: rows)
    case .favorites:
      enter(.favorites)
      await favorites.reload()
    case .removeFavorites(let rows):
      guard screen == .favorites else {
        output.print(errorLine("rm works on the favourites screen: type F first"))
        return true
      }
      redrawRequested = true
      await favorites.remove(rows: rows)
    case .favoritesOrder(let order):
      redrawRequested = true
      await favorites.setOrder(order)
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
    case .takeSuggestion:
      await takeSuggestion()
    case .refresh:
      await refresh()
    case .links(let row):
      openLinks(row: row)
    case .download(let row):
      await act(row: row, usage: "d N (download book N)") { actions, book in
        if await actions.download(book) != nil, case .details = self.screen {
          self.redrawRequested = true
        }
      }
    case .read(let row):
      await act(row: row, usage: "read N (read book N)") { actions, book in
        await actions.read(book)
        self.redrawRequested = true
      }
    case .grep(let words):
      guard let actions = bookActions else {
        output.print(errorLine("searching the library is not available here"))
        return true
      }
      await actions.grep(words)
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
      enter(.status)
      await status.refresh(probe: true)
    case .sync:
      await syncNow()
    case .new(let since, let all):
      await showNew(since: since, all: all)
    case .help:
      enter(.help)
    case .back:
      enter(.browse)
    }
    return true
  }

  private func browse(_ action: (BrowserViewModel) async -> Void) async {
    if screen != .browse { enter(.browse) }
    // The user asked to see a page: show it even when it is the one already on screen.
    redrawRequested = true
    await action(browser)
  }

  func changeQuery(_ change: (inout BookQuery) -> Void) async {
    var query = browser.current.query
    change(&query)
    await browse { await $0.setQuery(query) }
    await offerSuggestion()
  }

  private func refresh() async {
    redrawRequested = true
    switch screen {
    case .favorites:
      await favorites.refresh()
    case .status:
      await status.refresh(probe: true)
    case .details:
      if let detail, let id = detail.current.book?.id { await detail.load(id: id) }
    default:
      await browse { await $0.refresh() }
    }
  }

  private func pageFavorites(by delta: Int) async -> Bool {
    redrawRequested = true
    await favorites.goTo(page: favorites.current.page + delta)
    return true
  }

  /// The book in row `row` of the list on screen (favourites or browse).
  private func book(atRow row: Int) -> (book: Book, load: LoadState)? {
    if screen.list == .favorites {
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

  private func openDetails(row: Int) async {
    guard let (book, load) = book(atRow: row) else { return }
    let model = await BookDetailViewModel(service: service, book: book, source: load)
    detail = model
    enter(.details(from: screen.list))
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
    } else if let shown = detail?.current.book, screen.showsOneBook {
      book = shown
    } else {
      output.print(errorLine("usage: \(usage)"))
      return
    }
    await body(actions, book)
  }

  private func openLinks(row: Int?) {
    let book: Book
    if let row {
      guard let found = self.book(atRow: row) else { return }
      book = found.book
    } else if let shown = detail?.current.book, screen.showsOneBook {
      book = shown
    } else {
      output.print(errorLine("usage: links N (download links of row N)"))
      return
    }
    enter(.links(book, from: screen.list))
  }

  private func toggle(rows: [Int]) async {
    switch screen {
    case .details:
      // `f` or `f 1` means the book shown; other rows mean the list's rows.
      guard let detail, rows.isEmpty || rows == [1] else { return await toggleList(rows: rows) }
      await detail.toggleFavorite()
      if detail.current.load.error == nil, let book = detail.current.book {
        notices.append(favoriteNotice(book.title, added: detail.current.isFavorite))
      }
    case .links(let book, _):
      // The links screen shows no favourite mark, so the outcome is said here.
      let model: BookDetailViewModel
      if let detail, detail.current.book?.id == book.id {
        model = detail
      } else {
        model = await BookDetailViewModel(service: service, book: book, source: .idle)
      }
      await model.toggleFavorite()
      if let error = model.current.load.error {
        output.print(errorLine(error.description))
        model.dismissError()
      } else {
        output.print(noticeLine(favoriteNotice(book.title, added: model.current.isFavorite)))
      }
    case .favorites:
      redrawRequested = true
      await favorites.remove(rows: rows)
    default:
      await toggleList(rows: rows)
    }
  }

  private func toggleList(rows: [Int]) async {
    if screen != .browse { enter(.browse) }
    let before = Dictionary(
      browser.current.items.map { ($0.id, $0.isFavorite) }, uniquingKeysWith: { first, _ in first })
    await browser.toggleFavorites(rows: rows)
    guard browser.current.load.error == nil else { return }
    let changed = browser.current.items.filter { before[$0.id] != $0.isFavorite }
    if changed.count == 1, let item = changed.first {
      notices.append(favoriteNotice(item.book.title, added: item.isFavorite))
    } else if !changed.isEmpty {
      let added = changed.filter(\.isFavorite).count
      notices.append("Favourites: \(added) added, \(changed.count - added) removed.")
    }
  }

  private func favoriteNotice(_ title: String, added: Bool) -> String {
    let shown = Sanitizer.title(title)
    let short = DisplayWidth.truncate(shown, toCells: 60)
    return added ? "Added to favourites: \(short)" : "Removed from favourites: \(short)"
  }

  private func export(to path: String?) async {
    let file = URL(
      fileURLWithPath: path.map { HomePath.expand($0) }
        ?? "gutenberg-favorites-\(TextFormat.date(now(), timeZone: .gmt)).json")
    do {
      let count = try await service.exportFavorites(to: file)
      output.print(exportLines(count: count, path: file.path))
    } catch {
      output.print(errorLine(error.description))
    }
  }

  private func importFile(_ path: String) async {
    let data: Data
    do {
      data = try await ImportSource.read(HomePath.expand(path))
    } catch {
      output.print(errorLine("cannot read \(path): \(Self.reason(error))"))
      return
    }
    do {
      // The lists on screen hear the change through their view models and are drawn again.
      let summary = try await service.importFavorites(data, source: path)
      notices.append(
        "Imported from \(path): \(summary.added) added, \(summary.updated) updated, "
          + "\(summary.unchanged) unchanged.")
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

  /// Leaves the current screen (cancelling its subscription) and subscribes to the new one's
  /// view model; the new screen is drawn when the command ends.
  private func enter(_ next: Screen) {
    observation?.cancel()
    observation = nil
    screen = next
    heard = nil
    drawn = nil
    reloaded = false
    switch next {
    case .browse:
      observation = browser.observe { [weak self] in self?.hear(.browse($0)) }
    case .details:
      observation = detail?.observe { [weak self] in self?.hear(.details($0)) }
    case .favorites:
      observation = favorites.observe { [weak self] in self?.hear(.favorites($0)) }
    case .status:
      observation = status.observe { [weak self] in self?.hear(.status($0)) }
    case .links(let book, _):
      heard = .links(book)
    case .help:
      heard = .help
    }
  }

  /// An observer's callback: keep the state; draw at once when no command is running.
  ///
  /// A change heard between commands was made elsewhere (another `gutenberg` added a
  /// favourite): no command's notice explains it, so the whole screen is drawn again, between
  /// the runner's ``idleDraw`` hooks (which end the prompt's line and show the prompt again).
  private func hear(_ state: ScreenState) {
    heard = state
    if state.isLoading { reloaded = true }
    guard !isRunningCommand, let pending = heard, pending != drawn, !pending.isLoading else {
      return
    }
    redrawRequested = true
    idleDraw?.before()
    draw()
    idleDraw?.after()
  }

  /// Draws what was heard since the last drawing: an error line, a notice for a change that
  /// needs no new screen (a favourite toggled on the details screen), or the screen.
  private func draw() {
    guard let state = heard, !state.isLoading else { return }
    if let error = state.error {
      output.print(errorLine(error.description))
      // Showing an error clears it; what it clears back to is already on screen.
      heard = drawn
      reloaded = false
      redrawRequested = false
      dismissError()
      return
    }
    let changed = state != drawn || reloaded || redrawRequested
    guard changed else { return }
    let lines = ScreenDrawing.lines(
      from: redrawRequested || reloaded ? nil : drawn, to: state, in: self)
    redrawRequested = false
    reloaded = false
    drawn = state
    output.print(lines)
  }

  /// Clears the failed state of the screen's view model (its observer hears the change).
  private func dismissError() {
    let wasRunning = isRunningCommand
    // The cleared state equals what is drawn: hear it without drawing.
    isRunningCommand = true
    switch screen {
    case .browse: browser.dismissError()
    case .favorites: favorites.dismissError()
    case .details: detail?.dismissError()
    default: break
    }
    isRunningCommand = wasRunning
    heard = drawn
  }

  private func readDetailDownloads() async {
    if let id = detail?.current.book?.id, let actions = bookActions {
      detailDownloads = await actions.downloads(id)
    } else {
      detailDownloads = []
    }
  }

  /// The downloads of the book on the details screen, as last read.
  var shownDownloads: [String] { detailDownloads }
}
