import Foundation
import GRDB
import Gutendex

extension FavoritesStore {
  /// The export document: every favourite, oldest first, as deterministic pretty-printed JSON.
  ///
  /// `{"count":N,"exported_at":…,"favorites":[{"added_at":…,"book":{…}}],
  /// "format":"gutenberg-favorites","version":1}` with sorted keys, two-space indentation,
  /// unescaped UTF-8 and slashes, and a trailing newline. Each book is the stored server JSON
  /// with its keys sorted, so fields this program does not know survive. A favourite read in
  /// the reader also carries its `reading_position` and `bookmarks`, and the document is then
  /// version 2; without them it stays version 1, which older versions of the program import.
  /// A book with bookmarks or highlights but no star follows the favourites, marked
  /// `"favourite": false` (its `book` only its id and title), and makes the document version 3,
  /// which older versions refuse rather than star it; `count` counts every entry.
  func exportDocument(exportedAt: Date = Date()) throws(StoreError) -> Data {
    var document: [UInt8] = []
    try writeExport(exportedAt: exportedAt) { (piece: [UInt8]) throws(StoreError) in
      document.append(contentsOf: piece)
    }
    return Data(document)
  }

  /// Writes the export document to `file` atomically (temporary file, fsync, rename), a piece
  /// at a time: on failure nothing is left behind and an existing file is unchanged. Returns how
  /// many favourites it holds.
  @discardableResult
  func export(to file: URL, exportedAt: Date = Date()) throws(StoreError) -> Int {
    var count = 0
    try StoreFileWriter.writeAtomically(to: file) { (write) throws(StoreError) in
      count = try writeExport(exportedAt: exportedAt, to: write)
    }
    return count
  }

  /// Bytes gathered before a piece goes to the sink.
  static let exportPiece = 64 * 1024

  /// Streams ``exportDocument(exportedAt:)`` to `sink` in pieces of about 64 KiB, each ending at
  /// the end of an entry (so each is whole UTF-8), from one read transaction: memory stays that
  /// of one piece whatever the number of favourites. Returns how many favourites it wrote.
  @discardableResult
  func writeExport(
    exportedAt: Date = Date(), to sink: ([UInt8]) throws(StoreError) -> Void
  ) throws(StoreError) -> Int {
    let path = databaseURL.path
    let exported = StoreTimestamp.iso8601(
      milliseconds: StoreTimestamp.milliseconds(exportedAt), fractional: false)
    return try reading { db in
      let favoriteCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM favorite") ?? 0
      let notesOnly = try ExportReadingData.notesOnlyCount(db)
      let count = favoriteCount + notesOnly
      var out: [UInt8] = []
      out.reserveCapacity(Self.exportPiece + 16 * 1024)
      func flush() throws {
        guard !out.isEmpty else { return }
        try sink(out)
        out.removeAll(keepingCapacity: true)
      }
      func append(_ text: String) { out.append(contentsOf: text.utf8) }
      append("{\n  \"count\": \(count),\n  \"exported_at\": ")
      StoreJSON.writeString(exported, to: &out)
      append(",\n  \"favorites\": ")
      var reading = try ExportReadingData(db)
      var written = 0
      var carriesReading = false
      let favorites = try Row.fetchCursor(
        db, sql: "SELECT id, added_at, raw_json FROM favorite ORDER BY added_at, id")
      while let row = try favorites.next() {
        let id: Int = row["id"]
        let addedAt: Int64 = row["added_at"]
        let raw: Data = row["raw_json"]
        let book: StoreJSON
        do throws(JSONParseError) {
          book = try StoreJSON.parse([UInt8](raw))
        } catch {
          throw StoreError.io(
            path: path, reason: "favourite \(id) has an unreadable snapshot: \(error.reason)")
        }
        var members: [StoreJSON.Member] = [
          .init(key: "added_at", value: .string(StoreTimestamp.iso8601(milliseconds: addedAt))),
          .init(key: "book", value: book),
        ]
        let extra = try reading.members(for: id, addedAt: addedAt)
        if !extra.isEmpty { carriesReading = true }
        members += extra
        append(written == 0 ? "[\n    " : ",\n    ")
        StoreJSON.object(members).appendPretty(to: &out, level: 2)
        written += 1
        if out.count >= Self.exportPiece { try flush() }
      }
      var entries = written
      try ExportReadingData.notesOnlyBooks(db) { entry in
        append(entries == 0 ? "[\n    " : ",\n    ")
        entry.appendPretty(to: &out, level: 2)
        entries += 1
        if out.count >= Self.exportPiece { try flush() }
      }
      append(entries == 0 ? "[]" : "\n  ]")
      append(",\n  \"format\": ")
      StoreJSON.writeString(FavoritesImport.format, to: &out)
      let version =
        notesOnly > 0
        ? FavoritesImport.notesVersion
        : carriesReading ? FavoritesImport.version : FavoritesImport.plainVersion
      append(",\n  \"version\": \(version)\n}\n")
      try flush()
      return written
    }
  }

  /// Imports an export document, a Gutendex page or a JSON array of books, all-or-nothing.
  ///
  /// The syntax and shape are checked first, then each entry as one transaction writes it; a
  /// bad element throws ``StoreError/invalidImport(source:location:reason:)`` naming its JSON
  /// path (or the line and column of a syntax error) and the transaction is rolled back, so
  /// nothing is written. New books get the document's `added_at`,
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
    let bytes = [UInt8](data)
    // Written as it is read, one entry at a time, in one transaction: an error anywhere in the
    // document rolls all of it back, so an import is still all or nothing.
    return try writing { db in
      try Self.importItems(
        of: try WholeImportDocument(bytes, source: source), source: source,
        now: StoreTimestamp.milliseconds(date), db)
    }
  }

  /// ``importDocument(_:source:)`` of the file open at `descriptor` (a regular file of at most
  /// the import limit), streamed: the document is read a piece at a time and each entry again
  /// when it is written (``StreamedImportDocument``), so memory is a piece and one entry, not
  /// the document. The same all-or-nothing transaction, the same checks and messages; a
  /// document the streamed reader is not sure of (a syntax error, another layout), or a file
  /// that changes while it is read, is read whole and imported as ``importDocument(_:source:)``
  /// does.
  func importFile(descriptor: Int32, source: String, at date: Date = Date())
    throws(StoreError) -> ImportSummary
  {
    if let document = StreamedImportDocument(descriptor: descriptor) {
      var changed = false
      do {
        return try writing { db in
          do {
            return try Self.importItems(
              of: document, source: source, now: StoreTimestamp.milliseconds(date), db)
          } catch let error as ImportDocumentChanged {
            // Rolled back, then read whole below.
            changed = true
            throw error
          }
        }
      } catch {
        guard changed else { throw error }
      }
    }
    return try importDocument(Self.readWhole(descriptor), source: source, at: date)
  }

  /// The file open at `descriptor`, whole (the service refused it first if it is over the
  /// import limit).
  private static func readWhole(_ descriptor: Int32) -> Data {
    var data = Data()
    var piece = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let got = piece.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, off_t(data.count))
      }
      guard got > 0 else { break }
      data.append(contentsOf: piece[0..<got])
    }
    return data
  }

  /// The entries of `document` merged in the caller's transaction; `now` is the `added_at` of
  /// books from pages and arrays.
  private static func importItems(
    of document: some ImportDocument, source: String, now: Int64, _ db: Database
  ) throws -> ImportSummary {
    var summary = ImportSummary()
    try FavoritesImport.forEachItem(in: document, source: source) { item in
      guard item.isFavorite else {
        // Notes of a book without a star: merged, the favourites left as they are.
        summary.notesOnly += 1
        try Self.mergeReading(item, into: &summary, db)
        return
      }
      let stored = try Data.fetchOne(
        db, sql: "SELECT raw_json FROM favorite WHERE id = ?", arguments: [item.book.id])
      if let stored {
        // Compare by content, not bytes: a snapshot exported and imported back is the same.
        let current = try? StoreJSON.parse([UInt8](stored)).compact(sortedKeys: true)
        if current == item.canonical {
          summary.unchanged += 1
        } else {
          try Self.updateSnapshot(item.book, db)
          summary.updated += 1
        }
      } else {
        try Self.insert(item.book, addedAt: item.addedAt ?? now, db)
        summary.added += 1
      }
      try Self.mergeReading(item, into: &summary, db)
    }
    return summary
  }

  /// Merges an imported favourite's reading position and bookmarks: the newer of two wins
  /// (by `updated_at`), so neither side's later note or place is lost, and a bookmark already
  /// here (the same key) is never added twice.
  static func mergeReading(
    _ item: FavoritesImport.Item, into summary: inout ImportSummary, _ db: Database
  )
    throws
  {
    if let position = item.position, let updatedAt = position.updatedAt {
      let imported = StoreTimestamp.milliseconds(updatedAt)
      let stored = try Int64.fetchOne(
        db, sql: "SELECT updated_at FROM reading_position WHERE id = ?", arguments: [item.book.id])
      if stored.map({ imported > $0 }) ?? true {
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO reading_position (id, line, byte_offset, quote, updated_at)
            VALUES (?, ?, ?, ?, ?)
            """,
          arguments: [
            item.book.id, position.line, position.byteOffset, position.quote, imported,
          ])
        summary.positionsUpdated += 1
      }
    }
    for bookmark in item.bookmarks {
      let stored = try Int64.fetchOne(
        db, sql: "SELECT updated_at FROM bookmark WHERE key = ?", arguments: [bookmark.key])
      guard let stored else {
        try Library.save(bookmark, db)
        summary.bookmarksAdded += 1
        continue
      }
      if StoreTimestamp.milliseconds(bookmark.updatedAt) > stored {
        try Library.save(bookmark, db)
        summary.bookmarksUpdated += 1
      }
    }
  }
}
