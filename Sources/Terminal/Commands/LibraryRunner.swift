import Catalog
import Foundation
import Gutendex

/// `gutenberg library`: the downloaded books, or remove some (files and rows).
package struct LibraryRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// `library [--json]`: aligned on a terminal, TSV in a pipe.
  package func list(format: ListFormat) async -> ExitStatus {
    let entries: [LibraryEntry]
    do {
      entries = try await service.downloads()
    } catch {
      return fail(error)
    }
    let screen = LibraryScreen(rows: entries.map { .init(entry: $0, isPresent: $0.isPresent) })
    switch format {
    case .json:
      let objects: [[String: Any]] = screen.rows.map { row in
        [
          "id": row.entry.id, "format": row.entry.format, "title": row.entry.title,
          "path": row.entry.path, "size": row.entry.size,
          "fetched_at": JSONText.iso8601(row.entry.fetchedAt),
          // Rows stored before URLs were kept without credentials are shown without them.
          "validator": row.entry.validator ?? NSNull(), "url": URL.redacting(row.entry.url),
          "present": row.isPresent,
        ]
      }
      output.print(JSONText.text(objects, empty: "[]"))
    case .automatic:
      if output.isTerminal {
        output.print(screen.lines(width: output.width, style: output.style))
      } else {
        output.print(screen.tsvLines)
      }
    }
    return .ok
  }

  /// `library remove ID...`: deletes each book's files and rows.
  package func remove(ids: [Int]) async -> ExitStatus {
    var status = ExitStatus.ok
    for id in ids {
      let removed: [LibraryEntry]
      do {
        removed = try await service.removeDownloads(id: id)
      } catch {
        status = fail(error)
        continue
      }
      if removed.isEmpty {
        status = fail("\(id) is not in the library", .failure)
        continue
      }
      for entry in removed {
        if entry.isPresent, unlink(entry.path) != 0 {
          status = fail(
            "cannot delete \(entry.path): \(String(cString: strerror(errno)))", .failure)
          continue
        }
        output.printError("removed: \(id) \(entry.format) \(entry.path)")
      }
    }
    return status
  }
}
