import Catalog
import Foundation
import Gutendex

/// Draws the browser's state into its window: a pure function of the state, the window and
/// the clock. On a terminal every frame fits the window with the prompt under it: the list
/// shows the rows that fit, and a screen taller than the window shows its heading, a window of
/// its body with where it is (`lines 1–17 of 40 · Enter more`), and its keys. Without a window
/// (a pipe) every screen is drawn whole, as appended lines.
package enum BrowserFrame {
  /// The clock, time zone and colours a frame is drawn with.
  package struct Context: Sendable {
    /// The time ages are measured from.
    package var now: Date
    /// The time zone dates are shown in.
    package var timeZone: TimeZone
    /// Colour codes, when colour is on.
    package var style: Style

    /// A context.
    package init(now: Date, timeZone: TimeZone, style: Style) {
      self.now = now
      self.timeZone = timeZone
      self.style = style
    }
  }

  /// One frame: the screen's lines (nil while it has nothing settled to show), the notices
  /// under it, and the layout that was drawn.
  package struct Frame: Sendable, Hashable {
    /// The screen; nil while it loads (only the notices are drawn then).
    package var body: [String]?
    /// The lines the last actions left under the screen.
    package var notices: [String]
    /// What was shown, for ``BrowserAction/drawn(_:)``.
    package var layout: DrawnLayout

    /// Every line, screen then notices.
    package var lines: [String] { (body ?? []) + notices }
  }

  /// The frame for `state`.
  package static func render(_ state: BrowserState, _ context: Context) -> Frame {
    let width = state.window.width
    let notices = state.notices.flatMap { noticeLines($0, width: width, style: context.style) }
    guard let parts = screen(state, context) else {
      return Frame(
        body: nil, notices: notices, layout: DrawnLayout(listRows: nil, bodyRows: 0, bodyLines: 0))
    }
    guard let height = state.window.height else {
      let rows = state.screen == .browse ? shownRows(state) : nil
      return Frame(
        body: parts.heading + parts.body + parts.footer, notices: notices,
        layout: DrawnLayout(listRows: rows, bodyRows: parts.body.count, bodyLines: parts.body.count)
      )
    }
    // The prompt takes the window's last row.
    let room = height - 1
    if state.screen == .browse {
      return fitList(parts, room: room, notices: notices)
    }
    let whole = parts.heading.count + parts.body.count + parts.footer.count + notices.count
    if whole <= room {
      return Frame(
        body: parts.heading + parts.body + parts.footer, notices: notices,
        layout: DrawnLayout(listRows: nil, bodyRows: parts.body.count, bodyLines: parts.body.count))
    }
    let heading = Array(parts.heading.prefix(3))
    let window = max(
      1, room - heading.count - parts.footer.count - 1 - max(1, notices.count))
    let top = min(max(0, state.scroll), max(0, parts.body.count - window))
    let shown = Array(parts.body[top..<min(parts.body.count, top + window)])
    let more = top + shown.count < parts.body.count
    var position =
      "lines \(top + 1)–\(top + shown.count) of \(TextFormat.grouped(parts.body.count))"
    position += more ? " · Enter more" : " · Enter back"
    if top > 0 { position += " · p up" }
    let line = context.style.dim(DisplayWidth.truncate(position, toCells: width))
    return Frame(
      body: heading + shown + [line] + parts.footer, notices: notices,
      layout: DrawnLayout(listRows: nil, bodyRows: window, bodyLines: parts.body.count))
  }

  /// The list cut to the room: the rows that fit above the keys and the notices (at least one
  /// line kept for them, so a notice never pushes the heading off the top).
  private static func fitList(_ parts: ScreenLines, room: Int, notices: [String]) -> Frame {
    let chrome = parts.heading.count + parts.footer.count + max(1, notices.count)
    let rows = parts.rowCount ?? 0
    let kept =
      parts.rowCount == nil ? parts.body.count : max(min(rows, 1), min(rows, room - chrome))
    let body = parts.rowCount == nil ? parts.body : Array(parts.body.prefix(kept))
    return Frame(
      body: parts.heading + body + parts.footer, notices: notices,
      layout: DrawnLayout(
        listRows: parts.rowCount.map { _ in kept }, bodyRows: body.count,
        bodyLines: parts.body.count))
  }

  /// Rows of the list one screen shows: a page of the server's in a pipe; in a window, as
  /// many as fit between the heading and the keys with a line left for a notice.
  package static func listRows(_ state: BrowserState) -> Int {
    guard let height = state.window.height else { return BookQuery.pageSize }
    let chrome = browseScreen(state, rows: [], range: nil, context: layoutContext(state))
      .parts(width: state.window.width, style: .plain)
    return max(1, height - 1 - chrome.heading.count - chrome.footer.count - 1)
  }

  /// Whether a screen taller than the window has more of its body below (`down`) or above.
  package static func canScroll(_ state: BrowserState, down: Bool) -> Bool {
    guard state.window.height != nil, let drawn = state.drawn, drawn.listRows == nil else {
      return false
    }
    if !down { return state.scroll > 0 }
    return state.scroll + drawn.bodyRows < drawn.bodyLines
  }

  /// The rows of the list shown now (a pipe shows the whole page).
  static func shownRows(_ state: BrowserState) -> Int {
    state.list.items(from: state.list.top, count: listRows(state)).count
  }

  /// A context for layout decisions made without a clock (the reducer's): plain, at the time
  /// the list's page was loaded.
  private static func layoutContext(_ state: BrowserState) -> Context {
    var loaded = Date.distantPast
    if case .cache(let fetchedAt)? = state.list.load.source { loaded = fetchedAt }
    return Context(now: loaded, timeZone: .gmt, style: .plain)
  }

  // MARK: - Screens

  /// The screen on display in parts, nil while it has nothing settled to show.
  static func screen(_ state: BrowserState, _ context: Context) -> ScreenLines? {
    let width = state.window.width
    let style = context.style
    switch state.screen {
    case .browse:
      let list = state.list
      guard list.totalCount != nil else { return nil }
      let count = listRows(state)
      let items = list.items(from: list.top, count: count)
      let range: ClosedRange<Int>? =
        state.window.height == nil || items.isEmpty
        ? nil : (list.top + 1)...(list.top + items.count)
      return browseScreen(state, rows: items, range: range, context: context)
        .parts(width: width, style: style)
    case .details:
      guard let detail = state.detail, !detail.load.isPending,
        var screen = ScreenMapping.details(detail, now: context.now)
      else { return nil }
      screen.downloads = state.downloads
      screen.progress = state.progress
      return screen.parts(width: width, style: style)
    case .links(let book, _):
      return LinksScreen(book: book).parts(width: width, style: style)
    case .favorites:
      guard let favorites = state.favorites, !favorites.load.isPending else { return nil }
      return ScreenMapping.favorites(favorites, timeZone: context.timeZone)
        .parts(width: width, style: style)
    case .status:
      guard let status = state.status, !status.load.isPending else { return nil }
      return ScreenMapping.status(
        status, page: state.list.load.provenance, now: context.now, timeZone: context.timeZone
      ).parts(width: width, style: style)
    case .help:
      return HelpScreen().parts(width: width, style: style)
    case .new:
      guard let found = state.newBooks else { return nil }
      return NewScreen(found: found, timeZone: context.timeZone, more: "new all")
        .parts(width: width, style: style)
    }
  }

  /// The list's screen with `rows` (numbered from 1) from place `range`.
  static func browseScreen(
    _ state: BrowserState, rows: [BrowserViewModel.Item], range: ClosedRange<Int>?,
    context: Context
  ) -> BrowseScreen {
    let list = state.list
    var screen = BrowseScreen(
      query: BrowseScreen.summary(of: list.query), page: CatalogueList.page(of: list.top),
      pageCount: list.pageCount ?? 1, totalCount: list.totalCount ?? 0,
      provenance: list.load.provenance ?? .network, now: context.now,
      rows: rows.enumerated().map { index, item in
        BookRow(number: index + 1, book: item.book, isFavorite: item.isFavorite)
      })
    screen.range = range
    return screen
  }

  /// A notice as lines: `error: …` in red, a proposal with its key, or a sentence.
  static func noticeLines(_ notice: BrowserState.Notice, width: Int, style: Style) -> [String] {
    switch notice {
    case .error(let message):
      return ErrorLine(message).lines(width: width, style: style)
    case .suggestion(let proposal):
      return SuggestionLine(proposal).lines(width: width, style: style)
    case .info(let text):
      return TextWrapper.wrap(Sanitizer.sanitize(text), toCells: width)
    }
  }
}
