import Catalog
import Foundation

/// The saved favourites: how many, in what order, one row each with the date it was added and
/// a mark when the server no longer has the book.
package struct FavoritesScreen: Sendable, Hashable {
  /// One favourite.
  package struct Row: Sendable, Hashable {
    /// The book as a listing row.
    package var book: BookRow
    /// When the user added it.
    package var addedAt: Date
    /// True when the last refresh found the book gone from the server.
    package var isMissingOnServer: Bool

    /// A favourite row.
    package init(book: BookRow, addedAt: Date, isMissingOnServer: Bool = false) {
      self.book = book
      self.addedAt = addedAt
      self.isMissingOnServer = isMissingOnServer
    }
  }

  /// The order of ``rows``.
  package var order: FavoriteOrder
  /// The favourites, in ``order``.
  package var rows: [Row]
  /// The time zone for the added dates (the user's own; fixed in tests).
  package var timeZone: TimeZone
  /// A line of news for the user.
  package var notice: String?
  /// The keys shown at the bottom.
  package var hints: [String]
  /// What is shown instead of rows when there are none: how to add one.
  package var emptyText: String

  /// The keys shown under the favourites.
  package static let defaultHints = [
    "N details", "rm N", "n/p page", "export [FILE]", "sort newest|title|author", "r refresh",
    "b back", "? help",
  ]

  /// How to add a favourite, in the interactive browser.
  package static let defaultEmptyText = "No favourites yet. Type f N on a listing to add book N."
  /// How to add a favourite, from the shell.
  package static let commandLineEmptyText =
    "No favourites yet. `gutenberg favorites add ID` adds book ID."

  /// All favourites when the rows are one page of them; nil means the rows are all.
  package var totalCount: Int?
  /// The page the rows are, 1-based.
  package var page: Int
  /// How many pages of favourites there are.
  package var pageCount: Int

  /// A favourites screen.
  package init(
    order: FavoriteOrder, rows: [Row], timeZone: TimeZone = .current, notice: String? = nil,
    hints: [String] = FavoritesScreen.defaultHints,
    emptyText: String = FavoritesScreen.defaultEmptyText, totalCount: Int? = nil, page: Int = 1,
    pageCount: Int = 1
  ) {
    self.emptyText = emptyText
    self.totalCount = totalCount
    self.page = page
    self.pageCount = pageCount
    self.order = order
    self.rows = rows
    self.timeZone = timeZone
    self.notice = notice
    self.hints = hints
  }
}

extension FavoritesScreen: LineRendering {
  /// The header, rows (or how to add one), the `!` legend, messages and keys.
  package func lines(width: Int, style: Style) -> [String] {
    let orderText =
      switch order {
      case .newest: "newest first"
      case .title: "by title"
      case .author: "by author"
      }
    var lines = [
      style.bold("Favourites") + " · " + TextFormat.plural(totalCount ?? rows.count, "book") + " · "
        + orderText + (pageCount > 1 ? " · page \(page) of \(TextFormat.grouped(pageCount))" : "")
    ]
    if rows.isEmpty {
      lines += TextWrapper.wrap(Sanitizer.sanitize(emptyText), toCells: width)
    } else {
      let dates = ColumnLayout.Column(
        cells: rows.map { TextFormat.date($0.addedAt, timeZone: timeZone) }, dropPriority: 15)
      lines += BookTable.lines(
        rows: rows.map(\.book), marks: rows.map { $0.isMissingOnServer ? "!" : " " },
        extra: [dates], width: width, style: style)
      if rows.contains(where: \.isMissingOnServer) {
        lines += TextWrapper.wrap(
          "! no longer in the catalogue (kept as saved)", toCells: width)
      }
    }
    lines += ScreenParts.notice(notice, width: width, style: style)
    lines += ScreenParts.hints(hints, width: width, style: style)
    return lines
  }

  /// The heading, the rows (with the notice), and the keys.
  package func parts(width: Int, style: Style) -> ScreenLines {
    ScreenLines(
      lines(width: width, style: style), heading: 1,
      footer: ScreenParts.hints(hints, width: width, style: style).count)
  }
}
