import Catalog
import Foundation
import Gutendex

extension GutenbergApp {
  /// `gutenberg new`: the books syncs added since the last sync (or `since`), those by authors
  /// of your favourites first, then those in their subjects and on their bookshelves.
  /// The first page (32, as `list` prints) unless `all`.
  package func new(since: NewBooks.Since, languages: [String], all: Bool, format: ListFormat)
    async -> ExitStatus
  {
    let found: NewBooks
    do {
      found = try await service.newBooks(
        since: since, languages: languages, limit: all ? nil : BookQuery.pageSize)
    } catch {
      return fail(error)
    }
    if let note = Self.damageNote(found) { output.printError(note) }
    // Shown: the books are no longer new to the user (a language filter shows only some).
    defer { if languages.isEmpty { service.markNewBooksSeen(found) } }
    switch format {
    case .json:
      output.print(Self.newJSON(found))
    case .automatic where output.isTerminal:
      output.print(
        Self.newLines(
          found, width: output.width, style: output.style, timeZone: .current,
          more: "gutenberg new --all"))
    case .automatic:
      // Standard output stays rows only, for scripts.
      if found.total == 0 { output.printError(Self.nothingNewLine(found, timeZone: .current)) }
      output.print(found.items.map(Self.newTSVLine))
      if found.items.count < found.total {
        output.printError(
          "note: the first \(found.items.count) of \(TextFormat.plural(found.total, "new book")); "
            + "--all lists every one")
      }
    }
    return .ok
  }

  /// What a terminal shows: a heading, then each book with its reason under it, then how many
  /// more there are and `more`, the command that lists them.
  nonisolated static func newLines(
    _ found: NewBooks, width: Int, style: Style, timeZone: TimeZone, more: String
  ) -> [String] {
    guard found.total > 0 else { return [nothingNewLine(found, timeZone: timeZone)] }
    var heading = "\(TextFormat.plural(found.total, "new book")) since "
    heading += sinceText(found, timeZone: timeZone)
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
    if found.items.count < found.total {
      lines.append("… and \(TextFormat.grouped(found.total - found.items.count)) more: \(more)")
    }
    return lines
  }

  /// `nothing new since 2026-11-25 14:02 (the last sync)`; for the books new to the user
  /// before `new` ever showed any, `nothing new since the snapshot of 2025-08`.
  nonisolated static func nothingNewLine(_ found: NewBooks, timeZone: TimeZone) -> String {
    let line = "nothing new since \(sinceText(found, timeZone: timeZone))"
    return found.hasSynced || found.damage != nil
      ? line : line + ": the local catalogue has not synced yet (gutenberg sync)"
  }

  /// `note: the local catalogue is damaged (…)…`, when it could not be read.
  nonisolated static func damageNote(_ found: NewBooks) -> String? {
    found.damage.map {
      "note: the local catalogue is damaged (\(Sanitizer.sanitize($0))); nothing can be listed "
        + "as new until the next sync rebuilds it (gutenberg sync)"
    }
  }

  /// `2026-11-25 14:02:10 (the last sync)`, or the date alone.
  nonisolated static func sinceText(_ found: NewBooks, timeZone: TimeZone) -> String {
    let when =
      "\(TextFormat.date(found.since, timeZone: timeZone)) "
      + TextFormat.time(found.since, timeZone: timeZone)
    if found.unseen { return "\(when) (new to you)" }
    return found.sinceLastSync ? "\(when) (the last sync)" : when
  }

  /// A new book in a pipe: the book's TSV fields, when it was added, the feed's release date
  /// (empty when unknown) and the reason (empty for the rest).
  nonisolated static func newTSVLine(_ item: NewBooks.Item) -> String {
    [
      TSVRenderer.line(item.book), iso8601(item.added), item.issued ?? "",
      item.reason.map { Sanitizer.sanitize($0.text) } ?? "",
    ].joined(separator: "\t")
  }

  /// `{"since":…,"count":…,"results":[{"added":…,"issued":…,"reason":…,"book":{…}}]}`: the
  /// book as the server gave it; the reason's text sanitised.
  nonisolated static func newJSON(_ found: NewBooks) -> String {
    func encoded(_ value: Any) -> String {
      let data =
        (try? JSONSerialization.data(
          withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]))
        ?? Data("null".utf8)
      return String(decoding: data, as: UTF8.self)
    }
    let results = found.items.map { item in
      let reason: Any =
        item.reason.map {
          [
            "kind": $0.kind, "value": Sanitizer.sanitize($0.value),
            "text": Sanitizer.sanitize($0.text),
          ]
        } ?? NSNull()
      return "{\"added\":\(encoded(iso8601(item.added))),"
        + "\"issued\":\(encoded(item.issued ?? NSNull() as Any)),"
        + "\"reason\":\(encoded(reason)),"
        + "\"book\":\(String(decoding: item.book.rawJSON, as: UTF8.self))}"
    }
    return "{\"since\":\(encoded(iso8601(found.since))),"
      + "\"since_last_sync\":\(found.sinceLastSync),"
      + "\"count\":\(found.total),"
      + "\"results\":[" + results.joined(separator: ",\n") + "]}"
  }

  /// After a sync that added books: `12 new books, 2 by authors you keep: type new` (`hint`
  /// is what to type); nil when it added none or they cannot be read.
  nonisolated static func arrivalLine(_ found: NewBooks, hint: String) -> String? {
    guard found.total > 0 else { return nil }
    var parts = [TextFormat.plural(found.total, "new book")]
    if found.byAuthorsYouKeep > 0 { parts.append("\(found.byAuthorsYouKeep) by authors you keep") }
    if found.inSubjectsYouKeep > 0 {
      parts.append("\(found.inSubjectsYouKeep) in subjects you keep")
    }
    return parts.joined(separator: ", ") + ": " + hint
  }
}
