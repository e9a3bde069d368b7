import Catalog
import Foundation

/// What syncs added: a heading (how many since when, how many by authors and in subjects you
/// keep), each book with its reason under it (`+` marks them), and how many more there are.
package struct NewScreen: Sendable, Hashable {
  /// What was found.
  package var found: NewBooks
  /// The time zone dates are shown in.
  package var timeZone: TimeZone
  /// The command that lists the rest (`new all`, `gutenberg new --all`).
  package var more: String

  /// A screen of `found`.
  package init(found: NewBooks, timeZone: TimeZone, more: String) {
    self.found = found
    self.timeZone = timeZone
    self.more = more
  }

  /// `nothing new since 2026-11-25 14:02 (the last sync)`.
  package static func nothingNewLine(_ found: NewBooks, timeZone: TimeZone) -> String {
    let line = "nothing new since \(sinceText(found, timeZone: timeZone))"
    return found.hasSynced || found.damage != nil
      ? line : line + ": the local catalogue has not synced yet (gutenberg sync)"
  }

  /// `2026-11-25 14:02:10 (the last sync)`, or the date alone.
  static func sinceText(_ found: NewBooks, timeZone: TimeZone) -> String {
    let when =
      "\(TextFormat.date(found.since, timeZone: timeZone)) "
      + TextFormat.time(found.since, timeZone: timeZone)
    if found.unseen { return "\(when) (new to you)" }
    return found.sinceLastSync ? "\(when) (the last sync)" : when
  }
}

extension NewScreen: LineRendering {
  /// The heading, the books with their reasons, and the line saying how many more.
  package func lines(width: Int, style: Style) -> [String] {
    parts(width: width, style: style).lines
  }

  /// The heading, the books, and the line naming the rest.
  package func parts(width: Int, style: Style) -> ScreenLines {
    guard found.total > 0 else {
      return ScreenLines([Self.nothingNewLine(found, timeZone: timeZone)], heading: 1, footer: 0)
    }
    var heading = "\(TextFormat.plural(found.total, "new book")) since "
    heading += Self.sinceText(found, timeZone: timeZone)
    let kept = [
      found.byAuthorsYouKeep > 0 ? "\(found.byAuthorsYouKeep) by authors you keep" : nil,
      found.inSubjectsYouKeep > 0 ? "\(found.inSubjectsYouKeep) in subjects you keep" : nil,
    ].compactMap { $0 }
    if !kept.isEmpty { heading += " · " + kept.joined(separator: ", ") }
    // The number is the book's id (`show ID`, `get ID`, `read ID` take it).
    let rows = found.items.map { BookRow(number: $0.book.id, book: $0.book) }
    let table = BookTable.lines(
      rows: rows, marks: found.items.map { $0.reason == nil ? " " : "+" }, width: width,
      style: style)
    var lines = [style.bold(DisplayWidth.truncate(heading, toCells: width))]
    let indent = String(
      repeating: " ", count: max(3, String(rows.map(\.number).max() ?? 0).count) + 3)
    for (item, line) in zip(found.items, table) {
      lines.append(line)
      if let reason = item.reason {
        let text = indent + Sanitizer.sanitize(reason.text)
        lines.append(style.dim(DisplayWidth.truncate(text, toCells: width)))
      }
    }
    var footer = 0
    if found.items.count < found.total {
      lines.append("… and \(TextFormat.grouped(found.total - found.items.count)) more: \(more)")
      footer = 1
    }
    return ScreenLines(lines, heading: 1, footer: footer)
  }
}
