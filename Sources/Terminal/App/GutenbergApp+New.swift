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

  /// What a terminal shows (see ``NewScreen``).
  nonisolated static func newLines(
    _ found: NewBooks, width: Int, style: Style, timeZone: TimeZone, more: String
  ) -> [String] {
    NewScreen(found: found, timeZone: timeZone, more: more).lines(width: width, style: style)
  }

  /// `nothing new since 2026-11-25 14:02 (the last sync)`.
  nonisolated static func nothingNewLine(_ found: NewBooks, timeZone: TimeZone) -> String {
    NewScreen.nothingNewLine(found, timeZone: timeZone)
  }

  /// `note: the local catalogue is damaged (…)…`, when it could not be read.
  nonisolated static func damageNote(_ found: NewBooks) -> String? {
    found.damage.map {
      "note: the local catalogue is damaged (\(Sanitizer.sanitize($0))); nothing can be listed "
        + "as new until the next sync rebuilds it (gutenberg sync)"
    }
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
