import Foundation

/// Bookmarks and notes, off the main actor.
extension CatalogService {
  /// Marks a place in book `id`: its byte offset and the words there, with a note.
  public func addBookmark(
    id: Int, byteOffset: Int, quote: String, note: String, at date: Date = Date()
  ) async throws(CatalogError) -> Bookmark {
    try Self.checkKeepable(note)
    let bookmark = Bookmark(
      key: UUID().uuidString.lowercased(), bookID: id, byteOffset: byteOffset, quote: quote,
      note: note, createdAt: date, updatedAt: date)
    let library = self.library
    try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.saveBookmark(bookmark)
    }
    await settleChanges()
    return bookmark
  }

  /// Saves a changed bookmark (its note), or one made elsewhere.
  public func saveBookmark(_ bookmark: Bookmark) async throws(CatalogError) {
    try Self.checkKeepable(bookmark.note)
    let library = self.library
    try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.saveBookmark(bookmark)
    }
    await settleChanges()
  }

  /// Refuses a note the store would not keep whole: SQLite's text ends at U+0000, so a note
  /// holding one would be cut there without a word.
  static func checkKeepable(_ note: String) throws(CatalogError) {
    guard note.utf8.contains(0) else { return }
    throw .invalidInput(
      "a note cannot hold the character U+0000 (NUL): it would be cut there; nothing was saved")
  }

  /// Removes a bookmark; true if it was there.
  public func removeBookmark(key: String) async throws(CatalogError) -> Bool {
    let library = self.library
    let removed = try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.removeBookmark(key: key)
    }
    await settleChanges()
    return removed
  }

  /// The bookmarks of book `id`, or of every book, in reading order (b1, b2, ...).
  public func bookmarks(id: Int? = nil) async throws(CatalogError) -> [Bookmark] {
    let library = self.library
    return try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.bookmarks(id: id)
    }
  }
}
