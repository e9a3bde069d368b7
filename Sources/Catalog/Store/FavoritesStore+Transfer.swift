import Foundation
import GRDB
import Gutendex

extension FavoritesStore {
  /// The export document: every favourite, oldest first, as deterministic pretty-printed JSON.
  ///
  /// `{"count":N,"exported_at":…,"favorites":[{"added_at":…,"book":{…}}],
  /// "format":"gutenberg-favorites","version":1}` with sorted keys, two-space indentation,
  /// unescaped UTF-8 and slashes, and a trailing newline. Each book is the stored server JSON
  /// with its keys sorted, so fields this program does not know survive.
  func exportDocument(exportedAt: Date = Date()) throws(StoreError) -> Data {
    let path = databaseURL.path
    let rows = try reading { db in
      try Row.fetchAll(db, sql: "SELECT id, added_at, raw_json FROM favorite ORDER BY added_at, id")
    }
    var entries: [StoreJSON] = []
    entries.reserveCapacity(rows.count)
    for row in rows {
      let id: Int = row["id"]
      let raw: Data = row["raw_json"]
      let book: StoreJSON
      do {
        book = try StoreJSON.parse([UInt8](raw))
      } catch {
        throw .io(path: path, reason: "favourite \(id) has an unreadable snapshot: \(error.reason)")
      }
      entries.append(
        .object([
          .init(
            key: "added_at", value: .string(StoreTimestamp.iso8601(milliseconds: row["added_at"]))),
          .init(key: "book", value: book),
        ]))
    }
    let exported = StoreTimestamp.iso8601(
      milliseconds: StoreTimestamp.milliseconds(exportedAt), fractional: false)
    let document = StoreJSON.object([
      .init(key: "count", value: .number(String(entries.count))),
      .init(key: "exported_at", value: .string(exported)),
      .init(key: "favorites", value: .array(entries)),
      .init(key: "format", value: .string(FavoritesImport.format)),
      .init(key: "version", value: .number(String(FavoritesImport.version))),
    ])
    var bytes = document.pretty()
    bytes.append(0x0A)
    return Data(bytes)
  }

  /// Writes ``exportDocument(exportedAt:)`` to `file` atomically (temporary file, fsync,
  /// rename): on failure nothing is left behind and an existing file is unchanged.
  func export(to file: URL, exportedAt: Date = Date()) throws(StoreError) {
    try StoreFileWriter.writeAtomically(exportDocument(exportedAt: exportedAt), to: file)
  }

  /// Imports an export document, a Gutendex page or a JSON array of books, all-or-nothing.
  ///
  /// Everything is validated before one transaction writes it; a bad element throws
  /// ``StoreError/invalidImport(source:location:reason:)`` naming its JSON path (or the line and
  /// column of a syntax error) and nothing is written. New books get the document's `added_at`,
  /// or `date` for pages and arrays; existing favourites keep theirs and take the imported
  /// snapshot if it differs. Importing the same data twice changes nothing the second time.
  ///
  /// - Parameter source: names the data in errors (a file path, or "input").
  func importDocument(_ data: Data, source: String = "input") throws(StoreError)
    -> ImportSummary
  {
    try importDocument(data, source: source, at: Date())
  }

  /// ``importDocument(_:source:)`` with the `added_at` given to books from pages and arrays.
  func importDocument(_ data: Data, source: String = "input", at date: Date)
    throws(StoreError) -> ImportSummary
  {
    let items = try FavoritesImport(data, source: source).items
    let now = StoreTimestamp.milliseconds(date)
    return try writing { db in
      var summary = ImportSummary()
      for item in items {
        let stored = try Data.fetchOne(
          db, sql: "SELECT raw_json FROM favorite WHERE id = ?", arguments: [item.book.id])
        guard let stored else {
          try Self.insert(item.book, addedAt: item.addedAt ?? now, db)
          summary.added += 1
          continue
        }
        // Compare by content, not bytes: a snapshot exported and imported back is the same.
        let current = try? StoreJSON.parse([UInt8](stored)).compact(sortedKeys: true)
        if current == item.canonical {
          summary.unchanged += 1
        } else {
          try Self.updateSnapshot(item.book, db)
          summary.updated += 1
        }
      }
      return summary
    }
  }
}
