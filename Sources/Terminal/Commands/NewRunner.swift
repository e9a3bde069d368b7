import Catalog
import Foundation
import Gutendex

/// `gutenberg new`: the books syncs added since the last sync (or a moment), those by authors
/// of your favourites first, then those in their subjects and on their bookshelves.
package struct NewRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// `gutenberg new`: the books syncs added since the last sync (or `since`), those by authors
  /// of your favourites first, then those in their subjects and on their bookshelves.
  /// The first page (32, as `list` prints) unless `all`.
  package func run(since: NewBooks.Since, languages: [String], all: Bool, format: ListFormat) async
    -> ExitStatus
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
        NewScreen(found: found, timeZone: .current, more: "gutenberg new --all")
          .lines(width: output.width, style: output.style))
    case .automatic:
      // Standard output stays rows only, for scripts.
      if found.total == 0 { output.printError(NewScreen.nothingNewLine(found, timeZone: .current)) }
      output.print(found.items.map(Self.newTSVLine))
      if found.items.count < found.total {
        output.printError(
          "note: the first \(found.items.count) of \(TextFormat.plural(found.total, "new book")); "
            + "--all lists every one")
      }
    }
    return .ok
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
      TSVRenderer.line(item.book), JSONText.iso8601(item.added), item.issued ?? "",
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
      return JSONText.raw(data)
    }
    let results = found.items.map { item in
      let reason: Any =
        item.reason.map {
          [
            "kind": $0.kind, "value": Sanitizer.sanitize($0.value),
            "text": Sanitizer.sanitize($0.text),
          ]
        } ?? NSNull()
      return "{\"added\":\(encoded(JSONText.iso8601(item.added))),"
        + "\"issued\":\(encoded(item.issued ?? NSNull() as Any)),"
        + "\"reason\":\(encoded(reason)),"
        + "\"book\":\(JSONText.raw(item.book.rawJSON))}"
    }
    return "{\"since\":\(encoded(JSONText.iso8601(found.since))),"
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
