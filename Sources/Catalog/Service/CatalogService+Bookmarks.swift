import Foundation

/// Bookmarks and notes, off the main actor.
extension CatalogService {
  /// Marks a place in book `id`: its byte offset and the words there, with a note.
  public func addBookmark(
    id: Int, byteOffset: Int, quote: String, note: String, at date: Date = Date()
  ) async throws(CatalogError) -> Bookmark {
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
    let library = self.library
    try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.saveBookmark(bookmark)
    }
    await settleChanges()
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
