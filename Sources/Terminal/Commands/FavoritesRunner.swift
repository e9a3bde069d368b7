import Catalog
import Foundation
import Gutendex

/// `gutenberg favorites`: list, add, remove, export, import and refresh the favourites.
package struct FavoritesRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// `favorites list`: aligned on a terminal, TSV in a pipe (as they are read: 10,000
  /// favourites never sit in memory at once), or the export document.
  package func list(order: FavoriteOrder, format: ListFormat) async -> ExitStatus {
    do {
      switch format {
      case .json:
        try await exportToStandardOutput()
      case .automatic where !output.isTerminal:
        let output = self.output
        try await service.forEachFavorites(order: order) { window in
          output.print(window.map(Self.tsvLine))
        }
      case .automatic:
        let favorites = try await service.allFavorites(order: order)
        output.print(
          FavoritesScreen(
            order: .newest, rows: ScreenMapping.favoriteRows(favorites), hints: [],
            emptyText: FavoritesScreen.commandLineEmptyText
          ).lines(width: output.width, style: output.style))
      }
      return .ok
    } catch {
      return fail(error)
    }
  }

  /// A favourite's row in a pipe: the book's TSV fields and when it was added.
  nonisolated static func tsvLine(_ favorite: Favorite) -> String {
    TSVRenderer.line(favorite.book) + "\t" + JSONText.iso8601(favorite.addedAt)
  }

  /// `favorites add ID...`: the books fetched from the server in bulk (or from a fallback),
  /// then all saved in one transaction (10,000 ids are one commit, not 10,000), in the order
  /// named; then one line per id, in that order, as when each was saved by itself.
  package func add(ids: [Int]) async -> ExitStatus {
    var found: [(book: Book, addedAt: Date)] = []
    // For each id, its place in `found`, or why it was not found.
    var lookups: [Result<Int, CatalogError>] = []
    // One time for all: the store keeps them in the order named, a millisecond apart.
    let now = Date()
    for loaded in await service.books(ids: ids) {
      switch loaded {
      case .success(let book):
        lookups.append(.success(found.count))
        found.append((book.book, now))
      case .failure(let error):
        lookups.append(.failure(error))
      }
    }
    let added: Result<[Bool], CatalogError>
    do {
      added = .success(try await service.addFavorites(found))
    } catch {
      added = .failure(error)
    }
    var status = ExitStatus.ok
    for (id, lookup) in zip(ids, lookups) {
      switch (lookup, added) {
      case (.failure(let error), _), (.success, .failure(let error)):
        status = fail(error)
      case (.success(let index), .success(let flags)):
        let title = DisplayWidth.truncate(Sanitizer.title(found[index].book.title), toCells: 60)
        output.printError("\(flags[index] ? "added" : "already a favourite"): \(id) \(title)")
      }
    }
    return status
  }

  /// `favorites remove ID...`: all removed in one transaction, then one line per id, in the
  /// order named, as when each was removed by itself.
  package func remove(ids: [Int]) async -> ExitStatus {
    let removed: [Bool]
    do {
      removed = try await service.removeFavorites(ids: ids)
    } catch {
      return fail(error)
    }
    var status = ExitStatus.ok
    for (id, wasFavorite) in zip(ids, removed) {
      if wasFavorite {
        output.printError("removed: \(id)")
      } else {
        status = fail("\(id) is not a favourite", .failure)
      }
    }
    return status
  }

  /// `favorites export [-o FILE]`: the versioned JSON document, to standard output or a file.
  package func export(to path: String?) async -> ExitStatus {
    do {
      if let path {
        let file = URL(fileURLWithPath: HomePath.expand(path))
        let count = try await service.transfer.exportFavorites(to: file)
        output.printError("Exported \(TextFormat.plural(count, "favourite")) to \(file.path)")
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
    try await service.transfer.exportFavorites(streamingTo: { piece in
      output.write(JSONText.raw(piece))
    })
  }

  /// `favorites import FILE` (`-` reads standard input). A file is streamed (see
  /// ``CatalogService/importFavorites(fileDescriptor:source:)``); standard input is read
  /// whole, up to the import limit.
  package func importFile(_ path: String) async -> ExitStatus {
    let document: ImportSource.Document
    do {
      document = try await ImportSource.open(HomePath.expand(path))
    } catch {
      return fail("cannot read \(path): \(InteractiveSession.reason(error))", .failure)
    }
    do {
      let source = path == "-" ? "stdin" : path
      let summary: ImportSummary
      switch document {
      case .bytes(let data):
        summary = try await service.transfer.importFavorites(data, source: source)
      case .file(let descriptor):
        defer { close(descriptor) }
        summary = try await service.transfer.importFavorites(
          fileDescriptor: descriptor, source: source)
      }
      var reading: [String] = []
      if summary.bookmarksAdded + summary.bookmarksUpdated > 0 {
        reading.append(
          "bookmarks: \(summary.bookmarksAdded) added, \(summary.bookmarksUpdated) updated")
      }
      if summary.notesOnly > 0 {
        reading.append(
          "notes of \(TextFormat.plural(summary.notesOnly, "book")) without a star (not starred)")
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

  /// `favorites refresh`: fresh snapshots from the server, 32 ids a request.
  package func refresh() async -> ExitStatus {
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
}
