import Foundation
import Gutendex

/// Bookmarks, highlights and notes, kept in the library's store and reached off the main
/// actor; every change is settled so observers hear of it. Reached through
/// ``CatalogService/marks``.
public struct ReadingMarks: Sendable {
  let library: Library
  /// Called after a change, so observers see it (``CatalogService``'s settling).
  let settle: @Sendable () async -> Void

  /// Marks a place in book `id`: its byte offset and the words there, with a note; with
  /// `endOffset`, a highlight of the passage from `byteOffset` to it (`quote` its words, cut to
  /// ``Bookmark/quoteLimit`` bytes). `chapter` is the heading of the chapter it is in.
  public func add(
    id: Int, byteOffset: Int, quote: String, note: String, endOffset: Int? = nil,
    chapter: String? = nil, at date: Date = Date()
  ) async throws(CatalogError) -> Bookmark {
    let bookmark = Bookmark(
      key: UUID().uuidString.lowercased(), bookID: id, byteOffset: byteOffset,
      quote: Bookmark.capped(quote.replacingOccurrences(of: "\u{0}", with: "")), note: note,
      createdAt: date, updatedAt: date, endOffset: endOffset,
      chapter: chapter?.replacingOccurrences(of: "\u{0}", with: ""))
    try await save(bookmark)
    return bookmark
  }

  /// Saves a changed bookmark (its note), or one made elsewhere.
  public func save(_ bookmark: Bookmark) async throws(CatalogError) {
    try Self.checkKeepable(bookmark.note)
    try await run { library throws(StoreError) in try library.saveBookmark(bookmark) }
    await settle()
  }

  /// Removes a bookmark; true if it was there.
  public func remove(key: String) async throws(CatalogError) -> Bool {
    let removed = try await run { library throws(StoreError) in
      try library.removeBookmark(key: key)
    }
    await settle()
    return removed
  }

  /// The bookmarks of book `id`, or of every book, in reading order (b1, b2, ...).
  public func bookmarks(id: Int? = nil) async throws(CatalogError) -> [Bookmark] {
    try await run { library throws(StoreError) in try library.bookmarks(id: id) }
  }

  /// Where `bookmark` stands among its book's bookmarks, in reading order (1 for b1); nil when
  /// it is no longer there.
  public func number(of bookmark: Bookmark) async throws(CatalogError) -> Int? {
    try await bookmarks(id: bookmark.bookID).firstIndex { $0.key == bookmark.key }.map { $0 + 1 }
  }

  /// Refuses a note the store would not keep whole: SQLite's text ends at U+0000, so a note
  /// holding one would be cut there without a word.
  static func checkKeepable(_ note: String) throws(CatalogError) {
    guard note.utf8.contains(0) else { return }
    throw .invalidInput(
      "a note cannot hold the character U+0000 (NUL): it would be cut there; nothing was saved")
  }

  /// Runs `work` on the library store off the caller's actor, waiting for a writer as the
  /// store does.
  private func run<T: Sendable>(
    _ work: @escaping @Sendable (Library) throws(StoreError) -> T
  ) async throws(CatalogError) -> T {
    let library = self.library
    return try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try work(library)
    }
  }
}
