import Catalog
import Foundation
import Gutendex

/// `gutenberg list`: one page, or with `--all` every page, streamed as it arrives: aligned rows
/// on a terminal, tab-separated in a pipe, or JSON. Where a page came from when the server could
/// not be used, and what the catalogue proposes for a search that found few books, go to
/// standard error, so standard output stays the server's answer.
package struct ListRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Lists `query`'s first page, or every page with `all`.
  package func run(query: BookQuery, all: Bool, format: ListFormat) async -> ExitStatus {
    var pages = service.pages(query).makeAsyncIterator()
    let first: LoadedPage
    do {
      guard let page = try await pages.next() else { return fail(.unexpected("no page")) }
      first = page
    } catch {
      return fail(await outOfRange(query, failedWith: error) ?? error)
    }
    noteFallback(first, after: nil)
    context.noteDamage()
    if let line = Self.suggestionLine(
      await service.suggestions(for: query, found: first.page.count))
    {
      output.printError(line)
    }
    guard all else {
      printPage(first, format: format, rowOffset: 0, isFirst: true)
      return .ok
    }
    var loaded = first
    var row = 0
    var wroteBook = false
    if format == .json { output.write("[\n") }
    while true {
      switch format {
      case .json:
        for book in loaded.page.results {
          output.write((wroteBook ? ",\n" : "") + JSONText.raw(book.rawJSON))
          wroteBook = true
        }
      case .automatic:
        printPage(loaded, format: format, rowOffset: row, isFirst: row == 0)
      }
      row += loaded.page.results.count
      let previous = loaded
      do {
        guard let page = try await pages.next() else { break }
        loaded = page
      } catch {
        if format == .json { output.write("\n]\n") }
        return fail(error)
      }
      noteFallback(loaded, after: previous)
    }
    if format == .json { output.write((wroteBook ? "\n" : "") + "]\n") }
    return .ok
  }

  /// Says on standard error where a page came from when it is not live, once per change of
  /// source (a server lost part-way through `--all` hands over to the fallbacks).
  private func noteFallback(_ loaded: LoadedPage, after previous: LoadedPage?) {
    guard let reason = loaded.fallbackReason else { return }
    if let previous, previous.fallbackReason != nil,
      Self.sourceName(previous.source) == Self.sourceName(loaded.source)
    {
      return
    }
    let note = ProvenanceText.banner(loaded.provenance, now: Date()) ?? "offline"
    output.printError("note: \(note) (\(Sanitizer.sanitize(reason)))")
  }

  /// One page of a listing: aligned rows on a terminal, tab-separated rows in a pipe, or JSON.
  private func printPage(_ loaded: LoadedPage, format: ListFormat, rowOffset: Int, isFirst: Bool) {
    switch format {
    case .json:
      var parts = [
        "\"count\":\(loaded.page.count)", "\"page\":\(loaded.query.page)",
        "\"page_count\":\(loaded.page.pageCount)",
        "\"source\":\"\(Self.sourceName(loaded.source))\"",
      ]
      let books = loaded.page.results.map { JSONText.raw($0.rawJSON) }
      parts.append("\"results\":[" + books.joined(separator: ",") + "]")
      output.print("{" + parts.joined(separator: ",") + "}")
    case .automatic where output.isTerminal:
      if isFirst {
        let header =
          "\(BrowseScreen.summary(of: loaded.query)) · page \(loaded.query.page) of "
          + "\(TextFormat.grouped(loaded.page.pageCount)) · "
          + TextFormat.plural(loaded.page.count, "book")
        output.print(output.style.bold(DisplayWidth.truncate(header, toCells: output.width)))
      }
      output.print(
        BookTable.lines(
          rows: ScreenMapping.rows(loaded.page, offset: rowOffset),
          marks: loaded.page.results.map { _ in " " }, extra: [], width: output.width,
          style: output.style))
    case .automatic:
      output.print(TSVRenderer.lines(loaded.page.results))
    }
  }

  /// `network`, `cache`, `local`, `embedded` or `favorite`: where a page came from, in JSON.
  nonisolated static func sourceName(_ source: Catalog.PageSource) -> String {
    switch source {
    case .network: "network"
    case .cache: "cache"
    // A synced catalogue is the local one; before any sync it is the embedded snapshot.
    case .local(let name): name.hasPrefix(LocalCatalogue.embeddedNamePrefix) ? "embedded" : "local"
    case .favorite: "favorite"
    }
  }

  /// The out-of-range error for `query` when asking for its page failed with `error` because
  /// the query has fewer pages (its first page says how many); nil for any other failure.
  /// Wherever the pages come from (the server answers 404, the cache and the local catalogue
  /// have no such page), `list --page N` past the last page says so, as `g N` does.
  private func outOfRange(_ query: BookQuery, failedWith error: CatalogError) async
    -> CatalogError?
  {
    guard query.page > 1 else { return nil }
    switch error {
    case .notAvailableOffline, .server(.http(status: 404, _, _)): break
    default: return nil
    }
    guard let first = try? await service.page(query.atPage(1)) else { return nil }
    let pageCount = first.page.pageCount
    return query.page > pageCount ? .pageOutOfRange(page: query.page, pageCount: pageCount) : nil
  }

  /// `did you mean: les misérables (11 books)?`, or nil when there is nothing to propose.
  nonisolated static func suggestionLine(_ suggestions: [SearchSuggestion]) -> String? {
    guard !suggestions.isEmpty else { return nil }
    let named = suggestions.map { suggestion in
      let value = Sanitizer.sanitize(suggestion.value)
      let text = suggestion.field == .topic ? "topic \(value)" : value
      return "\(text) (\(suggestion.count) \(suggestion.count == 1 ? "book" : "books"))"
    }
    return "did you mean: \(named.joined(separator: ", or "))?"
  }
}
