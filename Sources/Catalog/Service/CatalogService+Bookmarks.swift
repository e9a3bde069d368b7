import Foundation
import Gutendex

/// Bookmarks, highlights and notes, off the main actor.
extension CatalogService {
  /// Marks a place in book `id`: its byte offset and the words there, with a note; with
  /// `endOffset`, a highlight of the passage from `byteOffset` to it (`quote` its words, cut to
  /// ``Bookmark/quoteLimit`` bytes). `chapter` is the heading of the chapter it is in.
  public func addBookmark(
    id: Int, byteOffset: Int, quote: String, note: String, endOffset: Int? = nil,
    chapter: String? = nil, at date: Date = Date()
  ) async throws(CatalogError) -> Bookmark {
    try Self.checkKeepable(note)
    let bookmark = Bookmark(
      key: UUID().uuidString.lowercased(), bookID: id, byteOffset: byteOffset,
      quote: Bookmark.capped(quote.replacingOccurrences(of: "\u{0}", with: "")), note: note,
      createdAt: date, updatedAt: date, endOffset: endOffset,
      chapter: chapter?.replacingOccurrences(of: "\u{0}", with: ""))
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

  /// The book of a note, for its title and authors, without the network: the favourite's
  /// snapshot, else the local catalogue's record; nil when neither has it.
  public func noteBook(id: Int) async -> Book? {
    let favorites = self.favorites
    if let favorite = try? await StoreWork.run(
      on: favorites.busyWait, { () throws(StoreError) in try favorites.favorite(id: id) })
    {
      return favorite.book
    }
    return try? local?.store().book(id: id)
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
