import Catalog
import Foundation
import Gutendex

/// The interactive browser: one ``BrowserState`` changed only by ``BrowserReducer``, the
/// effects it names run against the catalogue (their outcomes fed back as actions), and every
/// change drawn by ``BrowserFrame`` into the window.
///
/// Actions come from the commands typed, from the view models (their states, observed), from
/// the store (a favourite changed by another `gutenberg`) and from the window (a resize).
/// What a command changes is drawn once, when it ends; a change heard between commands is
/// drawn at once, between the runner's ``idleDraw`` hooks.
@MainActor
package final class InteractiveSession {
  /// The catalogue every view model of the session shares.
  package let service: CatalogService
  /// The catalogue list's view model.
  package let browser: BrowserViewModel
  /// The favourites screen's view model.
  package let favorites: FavoritesViewModel
  /// The status screen's view model.
  package let status: StatusViewModel
  /// The open book's view model, while a book is open.
  package private(set) var detail: BookDetailViewModel?
  /// Everything on screen.
  package private(set) var state: BrowserState
  let output: TerminalOutput
  /// Download and read, when the app provides them.
  package var bookActions: BookActions?
  /// Reads prompt lines; `lang` resolves codes against this session's local catalogue.
  let parser: PromptParser
  let now: @Sendable () -> Date
  /// The time zone dates are shown in (the user's own; fixed for the captures in `Screens/`).
  let timeZone: TimeZone
  /// Called before and after a drawing no command asked for; the runner ends the prompt's
  /// line before it and writes the prompt again after it.
  package var idleDraw: (before: @MainActor () -> Void, after: @MainActor () -> Void)?
  /// What the catalogue proposes for a search that finds few books; nil: no offers.
  package var suggest: Suggester?

  /// Proposals for a query that found `found` books, the best first (the app supplies them).
  package typealias Suggester =
    @Sendable (_ query: BookQuery, _ found: Int) async -> [SearchSuggestion]

  /// The subscriptions to the view models and the store.
  private var tokens: [ObservationToken] = []
  private var detailToken: ObservationToken?
  /// Effects waiting to run, in order.
  private var effects: [BrowserEffect] = []
  /// True while a command runs (what it changes is drawn when it ends).
  private var isRunningCommand = false
  /// True while effects of a change heard between commands run.
  private var isSettling = false
  /// What was last drawn, to draw only what changed.
  private var drawnBody: [String]?
  private var drawnRequest = -1

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
    state = BrowserState(query: query, window: Self.window(of: output))
  }

  /// The screen the user is on.
  package var screen: Screen { state.screen }

  /// Subscribes to the view models and the store, then loads the first page and draws it.
  package func start() async {
    tokens = [
      browser.observe { [weak self] in self?.send(.catalogue($0)) },
      favorites.observe { [weak self] in self?.send(.favorites($0)) },
      status.observe { [weak self] in self?.send(.status($0)) },
      service.observeChanges { [weak self] change in
        guard change.contains(.favorites) else { return }
        await self?.send(.favoritesChanged)
      },
    ]
    await command { send(.command(.goTo(page: 1))) }
  }

  /// Handles one input line; returns false when the session should end.
  package func handle(_ line: String) async -> Bool {
    resizeIfNeeded()
    do {
      let parsed = try parser.parse(line, context: state.screen)
      await command { send(.command(parsed)) }
    } catch {
      await command { send(.failed(error.message)) }
    }
    return !state.quit
  }

  /// A short description of what a command is waiting for, for the progress line.
  package func progressText(for line: String) -> String {
    parser.progressText(for: line, on: state.screen)
  }

  /// The window changed size (SIGWINCH): the screen is cut to it again and drawn at once (when
  /// a command runs, when it ends).
  package func windowChanged() async {
    let window = Self.window(of: output)
    guard window != state.window else { return }
    effects += BrowserReducer.reduce(&state, .resized(window))
    guard !isRunningCommand, !isSettling else { return }
    await settle()
  }

  /// What Tab completes now: the commands, their words, and the rows of the list on screen.
  var completion: Completion {
    Completion.browser(rows: state.shownBooks.count)
  }

  // MARK: - The loop: actions, effects, drawing

  /// Applies `action`; its effects run now when nothing else is running (a change heard
  /// between commands), else after those already waiting.
  func send(_ action: BrowserAction) {
    effects += BrowserReducer.reduce(&state, action)
    guard !isRunningCommand, !isSettling else { return }
    Task { await settle() }
  }

  /// Runs one command: its action, every effect that follows, then one drawing.
  private func command(_ body: () -> Void) async {
    isRunningCommand = true
    body()
    await runEffects()
    isRunningCommand = false
    draw()
  }

  /// A change heard between commands: its effects run, and what changed is drawn at once.
  private func settle() async {
    isSettling = true
    await runEffects()
    isSettling = false
    guard !isRunningCommand, let lines = pendingLines() else { return }
    idleDraw?.before()
    output.print(lines)
    idleDraw?.after()
  }

  private func runEffects() async {
    while !effects.isEmpty {
      await perform(effects.removeFirst())
    }
  }

  private func draw() {
    if let lines = pendingLines() { output.print(lines) }
  }

  /// The lines to print for what changed since the last drawing, nil when nothing did: the
  /// screen when it changed (or a command asked to see it), and the notices. On a terminal the
  /// whole frame is drawn with any notice, so the heading stays at the top of the window.
  private func pendingLines() -> [String]? {
    let frame = BrowserFrame.render(
      state, BrowserFrame.Context(now: now(), timeZone: timeZone, style: output.style))
    var lines: [String] = []
    if let body = frame.body {
      // A command that failed leaves its screen as it was: in a pipe only the error is said.
      let failed = state.notices.contains {
        if case .error = $0 { return true }
        return false
      }
      let asked = state.shown != drawnRequest && !failed
      let windowed = state.window.height != nil
      if body != drawnBody || asked || (windowed && !frame.notices.isEmpty) {
        lines = body
        drawnBody = body
        drawnRequest = state.shown
      }
    }
    lines += frame.notices
    guard !lines.isEmpty else { return nil }
    effects += BrowserReducer.reduce(&state, .drawn(frame.body == nil ? nil : frame.layout))
    return lines
  }

  private func resizeIfNeeded() {
    let window = Self.window(of: output)
    guard window != state.window else { return }
    send(.resized(window))
  }

  static func window(of output: TerminalOutput) -> WindowSize {
    WindowSize(width: output.width, height: output.height)
  }

  // MARK: - Effects

  private func perform(_ effect: BrowserEffect) async {
    switch effect {
    case .loadPage(let page): await browser.goTo(page: page)
    case .runQuery(let query): await browser.setQuery(query)
    case .reloadList: await browser.refresh()
    case .dismissListError: browser.dismissError()
    case .readFlags(let ids):
      guard let found = try? await service.favoriteIDs(among: ids) else { return }
      send(.flags(Dictionary(uniqueKeysWithValues: ids.map { ($0, found.contains($0)) })))
    case .toggleFavorites(let books): await toggle(books)
    case .openDetail(let book, let load):
      let model = await BookDetailViewModel(service: service, book: book, source: load)
      detail = model
      detailToken = model.observe { [weak self] in self?.send(.detail($0)) }
    case .toggleDetailFavorite:
      guard let detail else { return }
      await detail.toggleFavorite()
      if detail.current.load.error == nil, let book = detail.current.book {
        send(.said(Self.favoriteNotice(book.title, added: detail.current.isFavorite)))
      }
      detail.dismissError()
    case .toggleFavorite(let book):
      do {
        let added = try await service.toggleFavorite(book)
        send(.said(Self.favoriteNotice(book.title, added: added)))
      } catch {
        send(.failed(error.description))
      }
    case .reloadDetail(let id): await detail?.load(id: id)
    case .readDownloads(let id):
      send(
        .downloads(
          id: id, paths: await bookActions?.downloads(id) ?? [],
          progress: await bookActions?.progress(id) ?? nil))
    case .loadFavorites: await favorites.reload()
    case .favoritesPage(let page): await favorites.goTo(page: page)
    case .refreshFavorites: await favorites.refresh()
    case .removeFavorites(let rows): await favorites.remove(rows: rows)
    case .favoritesOrder(let order): await favorites.setOrder(order)
    case .refreshStatus: await status.refresh(probe: true)
    case .suggest(let query, let found):
      guard let suggest else { return }
      send(.suggested(await suggest(query, found).first, for: query))
    case .export(let path): await export(to: path)
    case .importFile(let path): await importFile(path)
    case .offline(let on):
      service.simulateOffline(on)
      send(
        .said(
          on
            ? "Offline simulation on: pages come from the cache or the local catalogue."
            : "Offline simulation off: pages come from the server again (r to reload)."))
    case .sync: await syncNow()
    case .new(let since, let all, let languages): await showNew(since, all, languages)
    case .download(let book): await download(book)
    case .read(let book):
      guard let actions = bookActions else {
        return send(.failed("reading is not available here"))
      }
      await actions.read(book)
      send(.redraw)
    case .grep(let words):
      guard let actions = bookActions else {
        return send(.failed("searching the library is not available here"))
      }
      await actions.grep(words)
    case .send(let book, let destination):
      await bookActions?.send(book, destination)
      if state.window.height != nil { send(.redraw) }
    }
  }

  private func toggle(_ books: [Book]) async {
    do {
      let now = try await service.toggleFavorites(books)
      send(.flags(Dictionary(books.map { ($0.id, now.contains($0.id)) }) { _, last in last }))
      var seen = Set<Int>()
      let changed = books.filter { seen.insert($0.id).inserted }
      if changed.count == 1, let book = changed.first {
        send(.said(Self.favoriteNotice(book.title, added: now.contains(book.id))))
      } else {
        let added = changed.filter { now.contains($0.id) }.count
        send(.said("Favourites: \(added) added, \(changed.count - added) removed."))
      }
    } catch {
      send(.failed(error.description))
    }
  }

  static func favoriteNotice(_ title: String, added: Bool) -> String {
    let short = DisplayWidth.truncate(Sanitizer.title(title), toCells: 60)
    return added ? "Added to favourites: \(short)" : "Removed from favourites: \(short)"
  }

  private func download(_ book: Book) async {
    guard let actions = bookActions else {
      return send(.failed("downloading is not available here"))
    }
    let saved = await actions.download(book)
    if saved != nil, case .details = state.screen {
      send(.downloads(id: book.id, paths: await actions.downloads(book.id)))
    }
    // Its lines were printed over the screen: on a terminal the screen is drawn again.
    if state.window.height != nil { send(.redraw) }
  }

  private func export(to path: String?) async {
    let file = URL(
      fileURLWithPath: path.map { HomePath.expand($0) }
        ?? "gutenberg-favorites-\(TextFormat.date(now(), timeZone: .gmt)).json")
    do {
      let count = try await service.transfer.exportFavorites(to: file)
      send(.said(ExportConfirmation(count: count, path: file.path).text))
    } catch {
      send(.failed(error.description))
    }
  }

  private func importFile(_ path: String) async {
    let document: ImportSource.Document
    do {
      document = try await ImportSource.open(HomePath.expand(path))
    } catch {
      return send(.failed("cannot read \(path): \(Self.reason(error))"))
    }
    do {
      // The lists on screen hear the change through their view models.
      let summary: ImportSummary
      switch document {
      case .bytes(let data):
        summary = try await service.transfer.importFavorites(data, source: path)
      case .file(let descriptor):
        defer { close(descriptor) }
        summary = try await service.transfer.importFavorites(
          fileDescriptor: descriptor, source: path)
      }
      send(
        .said(
          "Imported from \(path): \(summary.added) added, \(summary.updated) updated, "
            + "\(summary.unchanged) unchanged."))
    } catch {
      send(.failed(error.description))
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
}
