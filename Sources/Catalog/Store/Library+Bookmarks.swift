import Foundation
import GRDB

/// Bookmarks, highlights and notes, in the favourites file beside the reading positions.
extension Library {
  /// Adds `bookmark`, or replaces the one with its key.
  func saveBookmark(_ bookmark: Bookmark) throws(StoreError) {
    try writing { db in try Self.save(bookmark, db) }
  }

  /// Removes the bookmark with `key`; true if there was one.
  @discardableResult
  func removeBookmark(key: String) throws(StoreError) -> Bool {
    try writing { db in
      try db.execute(sql: "DELETE FROM bookmark WHERE key = ?", arguments: [key])
      return db.changesCount > 0
    }
  }

  /// The bookmarks of book `id` (of every book when nil), by book, then place in the book.
  func bookmarks(id: Int? = nil) throws(StoreError) -> [Bookmark] {
    try reading { db in
      if let id {
        return try Row.fetchAll(
          db, sql: "SELECT * FROM bookmark WHERE id = ? ORDER BY \(Self.bookmarkOrder)",
          arguments: [id]
        ).map(Self.bookmark)
      }
      return try Row.fetchAll(db, sql: "SELECT * FROM bookmark ORDER BY \(Self.bookmarkOrder)")
        .map(Self.bookmark)
    }
  }

  /// Book, then place, then age: the order the reader numbers them b1, b2, ...
  static let bookmarkOrder = "id, byte_offset, created_at, key"

  static func save(_ bookmark: Bookmark, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO bookmark
          (key, id, byte_offset, quote, note, created_at, updated_at, end_offset, chapter)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        bookmark.key, bookmark.bookID, max(0, bookmark.byteOffset), bookmark.quote,
        bookmark.note, StoreTimestamp.milliseconds(bookmark.createdAt),
        StoreTimestamp.milliseconds(bookmark.updatedAt),
        bookmark.endOffset.map { max(max(0, bookmark.byteOffset), $0) }, bookmark.chapter,
      ])
  }

  static func bookmark(_ row: Row) -> Bookmark {
    Bookmark(
      key: row["key"], bookID: row["id"], byteOffset: row["byte_offset"], quote: row["quote"],
      note: row["note"], createdAt: StoreTimestamp.date(milliseconds: row["created_at"]),
      updatedAt: StoreTimestamp.date(milliseconds: row["updated_at"]), endOffset: row["end_offset"],
      chapter: row["chapter"])
  }
}
