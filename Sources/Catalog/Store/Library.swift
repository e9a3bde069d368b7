import Foundation
import GRDB

/// The books downloaded on this machine and where each reader left off, kept in the favourites
/// database (its own tables: favourites and library are independent).
final class Library: Sendable {
  /// The SQLite file.
  let databaseURL: URL
  let pool: any DatabaseWriter
  let integrity: IntegrityCheck?
  /// The lock wait of the favourites file, which the library shares.
  let busyWait: BusyWait

  /// The library in the same file as `favorites`.
  init(favorites: FavoritesStore) {
    databaseURL = favorites.databaseURL
    pool = favorites.pool
    integrity = favorites.integrity
    busyWait = favorites.busyWait
  }

  /// Records a finished download, replacing an earlier one of the same book and format, with
  /// its `contents` (or none: an earlier download's are forgotten) in the same transaction.
  func record(_ entry: LibraryEntry, contents: LibraryContents? = nil) throws(StoreError) {
    try writing { db in
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO download
            (id, format, title, path, size, fetched_at, validator, url, etag, last_modified)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          entry.id, entry.format, entry.title, entry.path, entry.size,
          StoreTimestamp.milliseconds(entry.fetchedAt), entry.validator, entry.url, entry.etag,
          entry.lastModified,
        ])
      try db.execute(
        sql: "DELETE FROM download_contents WHERE id = ? AND format = ?",
        arguments: [entry.id, entry.format])
      if let contents, contents.id == entry.id, contents.format == entry.format {
        try db.execute(
          sql: """
            INSERT INTO download_contents
              (id, format, size, version, body_start, body_end, chapters)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            contents.id, contents.format, contents.size, contents.version,
            contents.body.lowerBound, contents.body.upperBound, contents.chaptersBlob,
          ])
      }
    }
  }

  /// The contents kept with the downloads (see ``LibraryContents``); a row that does not read
  /// back is left out (its book is then worked out again by the search).
  func contents() throws(StoreError) -> [LibraryContents] {
    try reading { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT id, format, size, version, body_start, body_end, chapters
          FROM download_contents
          """
      ).compactMap { row -> LibraryContents? in
        let start: Int = row["body_start"]
        let end: Int = row["body_end"]
        guard start >= 0, start <= end,
          let chapters = LibraryContents.chapters(from: row["chapters"] ?? Data())
        else { return nil }
        return LibraryContents(
          id: row["id"], format: row["format"], size: row["size"], version: row["version"],
          body: start..<end, chapters: chapters)
      }
    }
  }

  /// Every download, newest first.
  func entries() throws(StoreError) -> [LibraryEntry] {
    try reading { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM download ORDER BY fetched_at DESC, id, format"
      ).map(Self.entry)
    }
  }

  /// The downloads of one book, newest first.
  func entries(id: Int) throws(StoreError) -> [LibraryEntry] {
    try reading { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM download WHERE id = ? ORDER BY fetched_at DESC, format",
        arguments: [id]
      ).map(Self.entry)
    }
  }

  /// The ids among `ids` that have a download recorded.
  func downloadedIDs(among ids: [Int]) throws(StoreError) -> Set<Int> {
    guard !ids.isEmpty else { return [] }
    let unique = Array(Set(ids)).prefix(500)
    let marks = Array(repeating: "?", count: unique.count).joined(separator: ",")
    return try reading { db in
      try Int.fetchSet(
        db, sql: "SELECT id FROM download WHERE id IN (\(marks))",
        arguments: StatementArguments(Array(unique)))
    }
  }

  /// Removes the rows of `id` and returns them (the caller deletes the files).
  func remove(id: Int) throws(StoreError) -> [LibraryEntry] {
    try writing { db in
      let rows = try Row.fetchAll(
        db, sql: "SELECT * FROM download WHERE id = ? ORDER BY format", arguments: [id]
      ).map(Self.entry)
      try db.execute(sql: "DELETE FROM download WHERE id = ?", arguments: [id])
      try db.execute(sql: "DELETE FROM download_contents WHERE id = ?", arguments: [id])
      try db.execute(sql: "DELETE FROM reading_position WHERE id = ?", arguments: [id])
      return rows
    }
  }

  /// Where the book was when last read, or nil.
  func readingPosition(id: Int) throws(StoreError) -> ReadingPosition? {
    try reading { db in
      try Row.fetchOne(
        db,
        sql: "SELECT line, byte_offset, quote, updated_at FROM reading_position WHERE id = ?",
        arguments: [id]
      ).map(Self.position)
    }
  }

  /// Keeps where the reader is in a book.
  func setReadingPosition(id: Int, _ position: ReadingPosition, at date: Date = Date())
    throws(StoreError)
  {
    try writing { db in
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO reading_position (id, line, byte_offset, quote, updated_at)
          VALUES (?, ?, ?, ?, ?)
          """,
        arguments: [
          id, max(0, position.line), position.byteOffset.map { max(0, $0) }, position.quote,
          StoreTimestamp.milliseconds(date),
        ])
    }
  }

  static func position(_ row: Row) -> ReadingPosition {
    ReadingPosition(
      line: row["line"], byteOffset: row["byte_offset"], quote: row["quote"],
      updatedAt: StoreTimestamp.date(milliseconds: row["updated_at"]))
  }

  static func entry(_ row: Row) -> LibraryEntry {
    LibraryEntry(
      id: row["id"], format: row["format"], title: row["title"], path: row["path"],
      size: row["size"], fetchedAt: StoreTimestamp.date(milliseconds: row["fetched_at"]),
      validator: row["validator"], url: row["url"], etag: row["etag"],
      lastModified: row["last_modified"])
  }
}

extension Library: StoreFile {}
