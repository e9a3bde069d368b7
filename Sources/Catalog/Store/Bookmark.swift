import Foundation

/// A place the reader marked in a book, with an optional note.
///
/// Like the reading position it keeps a byte offset and the words found there, so the place
/// can be found again in a re-issued file or another edition.
public struct Bookmark: Sendable, Hashable {
  /// A UUID: the same bookmark on every machine it is exported to.
  public var key: String
  /// The Project Gutenberg number of the book.
  public var bookID: Int
  /// The byte offset in the file it was made in.
  public var byteOffset: Int
  /// The words at that offset (whitespace collapsed).
  public var quote: String
  /// The reader's note; empty for none.
  public var note: String
  /// When it was made.
  public var createdAt: Date
  /// When it (its note) last changed; an import keeps the newer of two.
  public var updatedAt: Date

  /// A bookmark with every field given.
  public init(
    key: String, bookID: Int, byteOffset: Int, quote: String, note: String, createdAt: Date,
    updatedAt: Date
  ) {
    self.key = key
    self.bookID = bookID
    self.byteOffset = byteOffset
    self.quote = quote
    self.note = note
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}
