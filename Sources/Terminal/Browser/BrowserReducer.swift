import Catalog
import Foundation
import Gutendex

/// The one path by which the browser's state changes: each action, in order, changes the state
/// and names the effects to run against the catalogue, whose outcomes come back as actions.
/// It does no input or output and reads no clock, so a test drives it action by action and
/// checks the state after each.
package enum BrowserReducer {
  /// Applies `action` to `state`; the effects to run, in order.
  package static func reduce(_ state: inout BrowserState, _ action: BrowserAction)
    -> [BrowserEffect]
  {
    switch action {
    case .command(let command):
      return run(command, &state)
    case .catalogue(let published):
      return take(published, &state)
    case .favorites(let published):
      state.favorites = published
      if let error = published.load.error { state.notices.append(.error(error.description)) }
      return []
    case .status(let published):
      state.status = published
      if let error = published.load.error { state.notices.append(.error(error.description)) }
      return []
    case .detail(let published):
      state.detail = published
      if let error = published.load.error { state.notices.append(.error(error.description)) }
      return []
    case .downloads(let id, let paths, let progress):
      if state.detail?.book?.id == id { (state.downloads, state.progress) = (paths, progress) }
      return []
    case .flags(let flags):
      state.list.setFlags(flags)
      return []
    case .favoritesChanged:
      let ids = state.list.rows.values.map(\.id)
      return ids.isEmpty ? [] : [.readFlags(ids.sorted())]
    case .suggested(let proposal, let query):
      guard query.cacheKey == state.list.query.cacheKey else { return [] }
      state.offered = proposal
      if let proposal { state.notices.append(.suggestion(proposal)) }
      return []
    case .newBooks(let found):
      state.newBooks = found
      state.screen = .new(from: state.screen.list)
      state.scroll = 0
      return []
    case .said(let text):
      state.notices.append(.info(text))
      return []
    case .failed(let text):
      state.notices.append(.error(text))
      return []
    case .resized(let window):
      state.window = window
      guard state.list.target == nil, state.list.totalCount != nil else { return [] }
      // A taller window shows more rows: those it lacks are loaded, the first row kept.
      return move(&state, to: state.list.top)
    case .redraw:
      state.shown += 1
      return []
    case .drawn(let layout):
      state.notices = []
      if let layout { state.drawn = layout }
      return []
    }
  }

  // MARK: - Commands

  private static func run(_ command: PromptCommand, _ state: inout BrowserState)
    -> [BrowserEffect]
  {
    switch command {
    case .quit:
      state.quit = true
      return []
    case .next:
      return forward(&state, orBack: false)
    case .more:
      return forward(&state, orBack: true)
    case .previous:
      return backward(&state)
    case .goTo(let page):
      if state.screen == .favorites {
        state.scroll = 0
        state.shown += 1
        return [.favoritesPage(page)]
      }
      state.screen = .browse
      state.shown += 1
      if let pageCount = state.list.pageCount, !(1...pageCount).contains(page) {
        return fail(&state, .pageOutOfRange(page: page, pageCount: pageCount))
      }
      return move(&state, to: CatalogueList.firstIndex(ofPage: page))
    case .details(let row):
      guard let (book, load) = book(atRow: row, &state) else { return [] }
      state.screen = .details(from: state.screen.list)
      state.detail = nil
      (state.downloads, state.progress) = ([], nil)
      state.scroll = 0
      return [.openDetail(book, load), .readDownloads(book.id)]
    case .toggleFavorites(let rows):
      return toggle(rows, &state)
    case .favorites:
      state.screen = .favorites
      state.scroll = 0
      state.shown += 1
      return [.loadFavorites]
    case .removeFavorites(let rows):
      guard state.screen == .favorites else {
        return fail(&state, "rm works on the favourites screen: type F first")
      }
      state.shown += 1
      return [.removeFavorites(rows: rows)]
    case .favoritesOrder(let order):
      state.scroll = 0
      state.shown += 1
      return [.favoritesOrder(order)]
    case .search(let text):
      return changeQuery(&state) { $0.search = text }
    case .languages(let codes):
      return changeQuery(&state) { $0.languages = codes }
    case .topic(let topic):
      return changeQuery(&state) { $0.topic = topic }
    case .years(let from, let to):
      return changeQuery(&state) {
        $0.authorYearStart = from
        $0.authorYearEnd = to
      }
    case .copyright(let values):
      return changeQuery(&state) { $0.copyright = values }
    case .sort(let sort):
      return changeQuery(&state) { $0.sort = sort }
    case .reset:
      return changeQuery(&state) { $0 = BookQuery() }
    case .takeSuggestion:
      guard let proposal = state.offered else {
        return fail(
          &state,
          "nothing proposed: \(SuggestionLine.key) runs the search a 'did you mean' line offers")
      }
      return changeQuery(&state) { query in
        if proposal.field == .topic {
          query.topic = proposal.value
        } else {
          query.search = proposal.value
        }
      }
    case .refresh:
      return refresh(&state)
    case .links(let row):
      guard let book = bookShownOrAt(row, usage: "links N (download links of row N)", &state)
      else { return [] }
      state.screen = .links(book, from: state.screen.list)
      state.scroll = 0
      state.shown += 1
      return []
    case .download(let row):
      guard let book = bookShownOrAt(row, usage: "d N (download book N)", &state) else {
        return []
      }
      return [.download(book)]
    case .read(let row):
      guard let book = bookShownOrAt(row, usage: "read N (read book N)", &state) else {
        return []
      }
      return [.read(book)]
    case .grep(let words):
      return [.grep(words)]
    case .send(let row, let destination):
      guard let book = bookShownOrAt(row, usage: "send N DIR (put book N on an e-reader)", &state)
      else { return [] }
      return [.send(book, to: destination)]
    case .offline(let on):
      return [.offline(on)]
    case .export(let path):
      return [.export(path: path)]
    case .importFile(let path):
      return [.importFile(path)]
    case .status:
      state.screen = .status
      state.scroll = 0
      state.shown += 1
      return [.refreshStatus]
    case .sync:
      return [.sync]
    case .new(let since, let all):
      return [.new(since, all: all, languages: state.list.query.languages)]
    case .help:
      state.screen = .help
      state.scroll = 0
      state.shown += 1
      return []
    case .back:
      return back(&state)
    }
  }

  /// `n` (and Enter, `orBack`): the next screenful of the list, or the rest of a screen taller
  /// than the window; past the end of such a screen, `n` goes on to the list's next rows and
  /// Enter goes back to the list.
  private static func forward(_ state: inout BrowserState, orBack: Bool) -> [BrowserEffect] {
    switch state.screen {
    case .browse:
      return moveList(&state, forward: true)
    case .favorites:
      if BrowserFrame.canScroll(state, down: true) { return scroll(&state, down: true) }
      if orBack { return back(&state) }
      let page = state.favorites?.page ?? 1
      guard page < (state.favorites?.pageCount ?? 1) else {
        return fail(&state, "this is the last page of favourites")
      }
      state.scroll = 0
      state.shown += 1
      return [.favoritesPage(page + 1)]
    default:
      if BrowserFrame.canScroll(state, down: true) { return scroll(&state, down: true) }
      if orBack { return back(&state) }
      state.screen = .browse
      return moveList(&state, forward: true)
    }
  }

  /// `p`: the previous screenful of the list, or the part of a tall screen above.
  private static func backward(_ state: inout BrowserState) -> [BrowserEffect] {
    switch state.screen {
    case .browse:
      return moveList(&state, forward: false)
    case .favorites:
      if BrowserFrame.canScroll(state, down: false) { return scroll(&state, down: false) }
      let page = state.favorites?.page ?? 1
      guard page > 1 else { return fail(&state, "already on the first page of favourites") }
      state.scroll = 0
      state.shown += 1
      return [.favoritesPage(page - 1)]
    default:
      if BrowserFrame.canScroll(state, down: false) { return scroll(&state, down: false) }
      state.screen = .browse
      return moveList(&state, forward: false)
    }
  }

  private static func scroll(_ state: inout BrowserState, down: Bool) -> [BrowserEffect] {
    let step = max(1, state.drawn?.bodyRows ?? 1)
    state.scroll = max(0, state.scroll + (down ? step : -step))
    state.shown += 1
    return []
  }

  /// A screenful on or back: as many rows as the screen shows, across the server's pages.
  private static func moveList(_ state: inout BrowserState, forward: Bool) -> [BrowserEffect] {
    state.shown += 1
    let list = state.list
    guard let total = list.totalCount, let pageCount = list.pageCount else {
      return move(&state, to: list.top)
    }
    let step = max(1, state.drawn?.listRows ?? BrowserFrame.listRows(state))
    if forward {
      let next = list.top + step
      guard next < total else {
        return fail(&state, .pageOutOfRange(page: pageCount + 1, pageCount: pageCount))
      }
      return move(&state, to: next)
    }
    guard list.top > 0 else { return fail(&state, "already on the first page") }
    return move(&state, to: max(0, list.top - BrowserFrame.listRows(state)))
  }

  /// Shows the list from place `index`: at once when its rows are held, else once the first
  /// page it lacks is loaded (the next ones follow as each arrives).
  static func move(_ state: inout BrowserState, to index: Int) -> [BrowserEffect] {
    state.list.target = index
    return settle(&state)
  }

  /// Moves to the target when its rows are all held; else asks for the first missing page.
  private static func settle(_ state: inout BrowserState) -> [BrowserEffect] {
    guard let target = state.list.target else { return [] }
    let count = BrowserFrame.listRows(state)
    let missing = state.list.missingPages(from: target, count: count)
    guard let page = missing.first else {
      state.list.top = target
      state.list.target = nil
      state.list.trim(keeping: count)
      return []
    }
    return [.loadPage(page)]
  }

  /// A state of the list's view model: a page stored, or its failure said once.
  private static func take(_ published: BrowserViewModel.State, _ state: inout BrowserState)
    -> [BrowserEffect]
  {
    if let error = published.load.error {
      state.list.target = nil
      state.nextList = nil
      state.notices.append(.error(error.description))
      return [.dismissListError]
    }
    if let next = state.nextList, next.query.cacheKey == published.query.cacheKey,
      case .loaded = published.load
    {
      state.list = next
      state.nextList = nil
    }
    let wasFresh = state.list.totalCount == nil
    guard state.list.take(published) else { return [] }
    var effects = settle(&state)
    // A new query's first answer: when it found few books, ask what was meant.
    if wasFresh, state.list.target == nil, let found = published.totalCount,
      found <= SearchSuggestion.threshold,
      !(published.query.search ?? "").isEmpty || !(published.query.topic ?? "").isEmpty
    {
      effects.append(.suggest(published.query.atPage(1), found: found))
    }
    return effects
  }

  private static func changeQuery(
    _ state: inout BrowserState, _ change: (inout BookQuery) -> Void
  ) -> [BrowserEffect] {
    var query = state.list.query
    change(&query)
    state.screen = .browse
    state.nextList = CatalogueList(query: query)
    state.offered = nil
    state.shown += 1
    return [.runQuery(query.atPage(1))]
  }

  private static func refresh(_ state: inout BrowserState) -> [BrowserEffect] {
    state.shown += 1
    switch state.screen {
    case .favorites:
      return [.refreshFavorites]
    case .status:
      return [.refreshStatus]
    case .details:
      guard let id = state.detail?.book?.id else { return [] }
      return [.reloadDetail(id), .readDownloads(id)]
    default:
      state.screen = .browse
      state.list.rows = [:]
      state.list.target = state.list.top
      return [.reloadList]
    }
  }

  private static func back(_ state: inout BrowserState) -> [BrowserEffect] {
    switch state.screen {
    case .details(.favorites), .links(_, .favorites), .new(.favorites):
      state.screen = .favorites
    default:
      state.screen = .browse
    }
    state.scroll = 0
    state.shown += 1
    return state.screen == .favorites ? [.loadFavorites] : []
  }

  private static func toggle(_ rows: [Int], _ state: inout BrowserState) -> [BrowserEffect] {
    switch state.screen {
    case .details:
      // `f` or `f 1` means the book shown; other rows mean the list's rows.
      if rows.isEmpty || rows == [1] { return [.toggleDetailFavorite] }
    case .links(let book, _):
      if rows.isEmpty || rows == [1] { return [.toggleFavorite(book)] }
    case .favorites:
      state.shown += 1
      return [.removeFavorites(rows: rows)]
    default:
      break
    }
    if state.screen != .browse {
      state.screen = .browse
      state.shown += 1
    }
    let shown = state.shownBooks
    guard !rows.isEmpty else { return fail(&state, "which rows? e.g. f 3 or f 2-4") }
    if let bad = rows.first(where: { !(1...max(shown.count, 1)).contains($0) || shown.isEmpty }) {
      return fail(&state, .noSuchRow(row: bad, rowCount: shown.count))
    }
    return [.toggleFavorites(rows.map { shown[$0 - 1].book })]
  }

  /// The book in row `row` of the list on screen, or nil after saying there is none.
  private static func book(atRow row: Int, _ state: inout BrowserState) -> (Book, LoadState)? {
    let shown = state.shownBooks
    guard (1...max(shown.count, 1)).contains(row), !shown.isEmpty else {
      _ = fail(&state, .noSuchRow(row: row, rowCount: shown.count))
      return nil
    }
    return shown[row - 1]
  }

  /// Row `row`'s book, or with no row the book on a details or links screen.
  private static func bookShownOrAt(_ row: Int?, usage: String, _ state: inout BrowserState)
    -> Book?
  {
    if let row { return book(atRow: row, &state)?.0 }
    switch state.screen {
    case .details:
      if let book = state.detail?.book { return book }
    case .links(let book, _):
      return book
    default:
      break
    }
    _ = fail(&state, "usage: \(usage)")
    return nil
  }

  private static func fail(_ state: inout BrowserState, _ error: CatalogError) -> [BrowserEffect] {
    fail(&state, error.description)
  }

  private static func fail(_ state: inout BrowserState, _ message: String) -> [BrowserEffect] {
    state.notices.append(.error(message))
    state.list.target = nil
    return []
  }
}
