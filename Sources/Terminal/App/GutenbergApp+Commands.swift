import Catalog
import Foundation
import Gutendex

/// The scriptable subcommands: each turns its options into one catalogue call and prints the
/// result as aligned rows (terminal), tab-separated rows (pipe) or JSON (`--json`).
extension GutenbergApp {
  /// How a listing is printed.
  package enum ListFormat: Sendable {
    /// Aligned rows on a terminal, tab-separated rows in a pipe.
    case automatic
    case json
  }

  /// `gutenberg list`: one page, or with `all` every page, streamed as it arrives.
  package func list(query: BookQuery, all: Bool, format: ListFormat) async -> ExitStatus {
    var pages = service.pages(query).makeAsyncIterator()
    let first: LoadedPage
    do {
      guard let page = try await pages.next() else { return fail(.unexpected("no page")) }
      first = page
    } catch {
      return fail(await outOfRange(query, failedWith: error) ?? error)
    }
    noteFallback(first, after: nil)
    noteDamage()
    // Standard error only: what a script reads on standard output is the server's answer.
    if let line = Self.suggestionLine(
      await service.suggestions(for: query, found: first.page.count))
    {
      output.printError(line)
    }
    guard all else {
      printPage(first, format: format, rowOffset: 0, isFirst: true, isLast: true)
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
          output.write((wroteBook ? ",\n" : "") + String(decoding: book.rawJSON, as: UTF8.self))
          wroteBook = true
        }
      case .automatic:
        printPage(loaded, format: format, rowOffset: row, isFirst: row == 0, isLast: false)
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
    output.printError("note: \(sourceNote(loaded.provenance)) (\(Sanitizer.sanitize(reason)))")
  }

  /// Says once on standard error that a damaged local catalogue was set aside.
  private func noteDamage() {
    if let note = service.takeLocalCatalogueDamageNote() {
      output.printError("note: \(Sanitizer.sanitize(note))")
    }
  }

  /// `gutenberg show ID`: one book with everything the server gives.
  package func show(id: Int, format: ListFormat) async -> ExitStatus {
    let detail = BookDetailViewModel(service: service)
    let state = await SettledState.after(observe: detail.observe, load: \.load) {
      await detail.load(id: id)
    }
    guard let state else { return fail(.cancelled) }
    noteDamage()
    if let error = state.load.error { return fail(error) }
    guard let book = state.book else { return fail(.invalidInput("no book \(id)")) }
    // As `list` does: where the book came from when not the server, on standard error only.
    if let provenance = state.load.provenance, let reason = provenance.fallbackReason {
      output.printError("note: \(sourceNote(provenance)) (\(Sanitizer.sanitize(reason)))")
    }
    switch format {
    case .json:
      output.print(String(decoding: book.rawJSON, as: UTF8.self))
    case .automatic:
      output.print(await detailScreenLines(state))
      // Every download link, as the browser's `links` shows them.
      output.print(
        LinksScreen(book: book, hints: []).lines(
          width: output.isTerminal ? output.width : 100, style: output.style))
    }
    return .ok
  }

  /// `gutenberg favorites list`.
  package func favoritesList(order: FavoriteOrder, format: ListFormat) async -> ExitStatus {
    do {
      switch format {
      case .json:
        try await exportToStandardOutput()
      case .automatic where !output.isTerminal:
        // A pipe gets rows as they are read: 10,000 favourites never sit in memory at once.
        let output = self.output
        try await service.forEachFavorites(order: order) { window in
          output.print(window.map(Self.favoriteTSVLine))
        }
      case .automatic:
        output.print(favoriteListLines(try await service.allFavorites(order: order)))
      }
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// `gutenberg favorites add ID...`: fetched from the server (or a fallback) and saved.
  package func favoritesAdd(ids: [Int]) async -> ExitStatus {
    var status = ExitStatus.ok
    for id in ids {
      do {
        let (book, added) = try await service.addFavorite(id: id)
        output.printError(
          "\(added ? "added" : "already a favourite"): \(id) \(shortTitle(book.title))")
      } catch {
        status = fail(error)
      }
    }
    return status
  }

  /// `gutenberg favorites remove ID...`.
  package func favoritesRemove(ids: [Int]) async -> ExitStatus {
    var status = ExitStatus.ok
    for id in ids {
      do {
        if try await service.removeFavorites(ids: [id]) > 0 {
          output.printError("removed: \(id)")
        } else {
          status = fail("\(id) is not a favourite", .failure)
        }
      } catch {
        status = fail(error)
      }
    }
    return status
  }

  /// `gutenberg favorites export [-o FILE]`: the versioned JSON document, to stdout or a file.
  package func favoritesExport(to path: String?) async -> ExitStatus {
    do {
      if let path {
        let file = URL(fileURLWithPath: path)
        let count = try await service.exportFavorites(to: file)
        output.printError(
          "Exported \(TextFormat.plural(count, "favourite")) to \(file.path)")
      } else {
        try await exportToStandardOutput()
      }
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// The export document to standard output, a piece at a time as it is read.
  private func exportToStandardOutput() async throws(CatalogError) {
    let output = self.output
    try await service.exportFavorites(streamingTo: { piece in
      output.write(String(decoding: piece, as: UTF8.self))
    })
  }

  /// `gutenberg favorites import FILE` (`-` reads standard input).
  package func favoritesImport(from path: String) async -> ExitStatus {
    let data: Data
    do {
      data = try await ImportSource.read(path)
    } catch {
      return fail("cannot read \(path): \(InteractiveSession.reason(error))", .failure)
    }
    do {
      let source = path == "-" ? "stdin" : path
      let summary = try await service.importFavorites(data, source: source)
      var reading: [String] = []
      if summary.bookmarksAdded + summary.bookmarksUpdated > 0 {
        reading.append(
          "bookmarks: \(summary.bookmarksAdded) added, \(summary.bookmarksUpdated) updated")
      }
      if summary.positionsUpdated > 0 {
        reading.append(
          "\(TextFormat.plural(summary.positionsUpdated, "reading position")) taken (newer)")
      }
      output.printError(
        "Imported from \(source): \(summary.added) added, "
          + "\(summary.updated) updated, \(summary.unchanged) unchanged"
          + reading.map { "; \($0)" }.joined())
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// `gutenberg favorites refresh`: fresh snapshots from the server, 32 ids a request.
  package func favoritesRefresh() async -> ExitStatus {
    do {
      let result = try await service.refreshFavorites()
      output.printError(
        "Refreshed \(TextFormat.plural(result.updated, "favourite"))"
          + (result.missing > 0 ? "; \(result.missing) no longer on the server (kept)" : ""))
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// `gutenberg cache info`.
  package func cacheInfo(format: ListFormat) async -> ExitStatus {
    do {
      let info = try await service.cacheInfo()
      switch format {
      case .json:
        let object: [String: Any] = [
          "entries": info.entries, "bytes": info.bytes, "path": info.path.path,
          "oldest": info.oldest.map(Self.iso8601) ?? NSNull(),
          "newest": info.newest.map(Self.iso8601) ?? NSNull(),
        ]
        output.print(Self.json(object))
      case .automatic:
        output.print(cacheInfoLines(info))
      }
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// `gutenberg cache clear`.
  package func cacheClear() async -> ExitStatus {
    do {
      let entries = try await service.clearCache()
      output.printError("Cleared \(TextFormat.plural(entries, "cached page"))")
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// `gutenberg status`: asks the server whether it answers, then shows the figures.
  package func status(format: ListFormat) async -> ExitStatus {
    let model = StatusViewModel(service: service)
    let settled = await SettledState.after(observe: model.observe, load: \.load) {
      await model.refresh(probe: true)
    }
    guard let state = settled else { return fail(.cancelled) }
    if let error = state.load.error { return fail(error) }
    switch format {
    case .json:
      var object: [String: Any] = [
        "server": state.server.redacted,
        "server_answers": state.serverAnswers.map { $0 as Any } ?? NSNull(),
        "source": state.mode == .localOnly ? "local" : "auto",
        "favorites": state.favoritesCount ?? 0,
        "favorites_refreshed": state.favoritesRefreshed.map(Self.iso8601) ?? NSNull(),
      ]
      if let cache = state.cache {
        object["cache"] = [
          "entries": cache.entries, "bytes": cache.bytes, "path": cache.path.path,
          "oldest": cache.oldest.map(Self.iso8601) ?? NSNull(),
        ]
      }
      if let sync = state.sync { object["catalogue"] = Self.syncObject(sync) }
      output.print(Self.json(object))
    case .automatic:
      output.print(statusScreenLines(state))
    }
    return .ok
  }

  func shortTitle(_ title: String) -> String {
    DisplayWidth.truncate(Sanitizer.title(title), toCells: 60)
  }

  nonisolated static func iso8601(_ date: Date) -> String {
    date.formatted(.iso8601)
  }

  static func json(_ object: [String: Any]) -> String {
    json(object as Any, empty: "{}")
  }

  /// Pretty JSON with sorted keys (an object or an array); `empty` if it cannot be encoded.
  static func json(_ value: Any, empty: String) -> String {
    let data =
      (try? JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]))
      ?? Data(empty.utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
