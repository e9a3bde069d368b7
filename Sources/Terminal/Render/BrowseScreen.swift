import Catalog
import Foundation
import Gutendex

/// A page of books: what was asked, where the page is, where it came from, the numbered rows
/// and the keys to go on.
package struct BrowseScreen: Sendable, Hashable {
  /// What the listing shows, e.g. `search "dickens" · lang en,fr · sort popular` or
  /// `all books` (see ``summary(of:)``).
  package var query: String
  /// The 1-based page shown.
  package var page: Int
  /// How many pages the query has.
  package var pageCount: Int
  /// How many books match in all.
  package var totalCount: Int
  /// Where the page came from; a banner is shown when not live.
  package var provenance: Provenance
  /// The time ages in the banner are measured from.
  package var now: Date
  /// The books on this page, in order.
  package var rows: [BookRow]
  /// The keys to show at the bottom, most useful first.
  package var hints: [String]
  /// The places (from 1) of the rows shown, when a window shows part of the list; nil when the
  /// rows are a whole page of the server's.
  package var range: ClosedRange<Int>?

  /// The keys shown at the bottom of a listing.
  package static let defaultHints = [
    "n next", "p prev", "g N go", "N details", "f N fav", "/ search", "F favourites", "? help",
    "q quit",
  ]

  /// A listing screen.
  package init(
    query: String, page: Int, pageCount: Int, totalCount: Int,
    provenance: Provenance = .network, now: Date = Date(), rows: [BookRow],
    hints: [String] = BrowseScreen.defaultHints
  ) {
    self.query = query
    self.page = page
    self.pageCount = pageCount
    self.totalCount = totalCount
    self.provenance = provenance
    self.now = now
    self.rows = rows
    self.hints = hints
  }
}

extension BrowseScreen: LineRendering {
  /// The header, the banner (and why) when not live, the rows (or a hint when there are none),
  /// and the keys.
  package func lines(width: Int, style: Style) -> [String] {
    parts(width: width, style: style).lines
  }

  /// The header and banner, the rows (or a hint), and the keys.
  package func parts(width: Int, style: Style) -> ScreenLines {
    var lines = header(width: width, style: style)
    for banner in ProvenanceText.bannerLines(provenance, now: now) {
      lines += TextWrapper.wrap(banner, toCells: width).map(style.yellow)
    }
    let heading = lines.count
    if rows.isEmpty {
      let empty = totalCount == 0 ? "No books match. Try `reset`." : "No books on this page."
      lines += TextWrapper.wrap(empty, toCells: width)
    } else {
      lines += BookTable.lines(
        rows: rows, marks: rows.map { $0.isFavorite ? "*" : " " }, width: width, style: style)
    }
    let keys = ScreenParts.hints(hints, width: width, style: style)
    return ScreenLines(
      lines + keys, heading: heading, footer: keys.count, rowCount: rows.isEmpty ? nil : rows.count)
  }

  /// `search "dickens" · page 3 of 2,397 · 76,696 books`, the query part cut to fit; on two
  /// lines when too narrow for the query and the position side by side.
  private func header(width: Int, style: Style) -> [String] {
    let position: String
    if totalCount == 0 {
      position = "no books"
    } else if let range {
      position =
        "\(TextFormat.grouped(range.lowerBound))–\(TextFormat.grouped(range.upperBound)) of "
        + "\(TextFormat.plural(totalCount, "book")) · page \(TextFormat.grouped(page)) of "
        + TextFormat.grouped(max(pageCount, 1))
    } else {
      position =
        "page \(TextFormat.grouped(page)) of \(TextFormat.grouped(max(pageCount, 1))) · "
        + TextFormat.plural(totalCount, "book")
    }
    var summary = Sanitizer.sanitize(query)
    if summary.isEmpty { summary = "all books" }
    let room = width - DisplayWidth.cells(position) - 3
    if room >= min(16, DisplayWidth.cells(summary)) {
      return [style.bold(Self.shorten(summary, toCells: room)) + " · " + position]
    }
    return [style.bold(Self.shorten(summary, toCells: width)), position]
  }
}

extension BrowseScreen {
  /// `summary` cut to `limit` cells by dropping whole ` · ` parts from the end (ending with
  /// `…`), so a filter is never shown half-cut unless the first one alone is too long.
  static func shorten(_ summary: String, toCells limit: Int) -> String {
    if DisplayWidth.cells(summary) <= limit { return summary }
    var parts = summary.components(separatedBy: " · ")
    while parts.count > 1 {
      parts.removeLast()
      let candidate = parts.joined(separator: " · ") + " …"
      if DisplayWidth.cells(candidate) <= limit { return candidate }
    }
    return DisplayWidth.truncate(summary, toCells: limit)
  }

  /// A readable summary of `query`'s filters: `search "dickens" · lang en,fr · sort popular`,
  /// or `all books` when it has none. The page is left out (the header shows it).
  package static func summary(of query: BookQuery) -> String {
    var parts: [String] = []
    if let search = query.search, !search.isEmpty { parts.append("search \"\(search)\"") }
    if !query.languages.isEmpty { parts.append("lang \(query.languages.joined(separator: ","))") }
    if let topic = query.topic, !topic.isEmpty { parts.append("topic \"\(topic)\"") }
    switch (query.authorYearStart, query.authorYearEnd) {
    case (nil, nil): break
    case (let start?, nil): parts.append("authors from \(TextFormat.year(start))")
    case (nil, let end?): parts.append("authors until \(TextFormat.year(end))")
    case (let start?, let end?):
      parts.append("authors \(TextFormat.year(start))–\(TextFormat.year(end))")
    }
    if !query.copyright.isEmpty {
      let names = query.copyright.map { status in
        switch status {
        case .copyrighted: "copyrighted"
        case .publicDomain: "public domain"
        case .unknown: "unknown"
        }
      }
      parts.append("copyright \(names.sorted().joined(separator: ","))")
    }
    if !query.ids.isEmpty {
      parts.append("ids \(query.ids.map(String.init).joined(separator: ","))")
    }
    if let mimeType = query.mimeType, !mimeType.isEmpty { parts.append("format \(mimeType)") }
    if parts.isEmpty { parts.append("all books") }
    if query.sort != .popular || parts.count > 1 || parts[0] != "all books" {
      parts.append("sort \(query.sort.rawValue)")
    }
    return Sanitizer.sanitize(parts.joined(separator: " · "))
  }
}
