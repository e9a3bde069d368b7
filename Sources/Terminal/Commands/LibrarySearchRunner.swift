import Catalog
import Foundation

/// `gutenberg library search WORDS` (and the browser's `grep`): the words in every downloaded
/// text.
package struct LibrarySearchRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Prints each line of the library's texts holding `words` (case- and accent-insensitive):
  /// grouped by book on a terminal, one TSV line per match in a pipe, or a JSON array, written
  /// as the matches are found. Exit 0 with a match, 1 without, 64 with no words (as grep).
  /// `onScreen` (the browser's `grep`): grouped by book even in a pipe, as its screens are.
  package func run(words: [String], format: ListFormat, onScreen: Bool = false) async -> ExitStatus
  {
    let phrase = words.joined(separator: " ")
    // The line is indented by 4 under its book, and `»` `«` take 2 more cells without colour.
    let search = LibrarySearch(words: phrase, cells: output.width - 6)
    guard search.hasWords else {
      return fail("give words to search for: gutenberg library search WORDS", .usage)
    }
    let entries: [LibraryEntry]
    let kept: [LibraryContents]
    do {
      entries = try await service.downloads()
      kept = try await service.downloadContents()
    } catch {
      return fail(error)
    }
    let texts = entries.filter(LibrarySearch.isPlainText)
    var found = 0
    var lastBook: String?
    // Piped (TSV, JSON), the matches are written some 32 KiB at a time, as grep does: a write
    // per match was a tenth of a search with matches in every book. On a screen, at once.
    let onTerminal = output.isTerminal || onScreen
    var pending = ""
    func flush() {
      guard !pending.isEmpty else { return }
      output.write(pending)
      pending = ""
    }
    func emit(_ text: String) {
      pending += text
      if onTerminal || pending.utf8.count >= 32 << 10 { flush() }
    }
    if format == .json { emit("[") }
    search.run(texts, kept: kept) { event in
      switch event {
      case .skipped(let entry, let reason):
        flush()
        output.printError("note: skipped book \(entry.id): \(Sanitizer.sanitize(reason))")
      case .match(let match):
        switch format {
        case .json:
          emit((found == 0 ? "\n  " : ",\n  ") + match.json)
        case .automatic where onTerminal:
          let book = "\(match.entry.id)\t\(match.entry.path)"
          if book != lastBook {
            output.print(match.bookLine(width: output.width, style: output.style))
            lastBook = book
          }
          output.print(match.lines(width: output.width, style: output.style))
        case .automatic:
          emit(match.tsvLine + "\n")
        }
        found += 1
      }
      return true
    }
    if format == .json { emit(found == 0 ? "]\n" : "\n]\n") }
    flush()
    guard found == 0 else { return .ok }
    let others = entries.count - texts.count
    let unsearched =
      others > 0
      ? "; \(TextFormat.plural(others, "download")) not plain text (`gutenberg get ID --format txt` "
        + "fetches the text)"
      : ""
    output.printError(
      "no match for \"\(Sanitizer.sanitize(phrase))\" in \(TextFormat.plural(texts.count, "text"))"
        + unsearched)
    return .failure
  }
}
