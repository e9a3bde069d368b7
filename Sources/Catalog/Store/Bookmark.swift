import Foundation

/// A place the reader marked in a book, with an optional note; or, with an ``endOffset``, a
/// highlight: a passage marked from ``byteOffset`` to ``endOffset``, its words kept whole.
///
/// Like the reading position it keeps a byte offset and the words found there, so the place
/// can be found again in a re-issued file or another edition; the words also let a note be
/// listed (and exported) when the download is gone.
public struct Bookmark: Sendable, Hashable {
  /// A UUID: the same bookmark on every machine it is exported to.
  public var key: String
  /// The Project Gutenberg number of the book.
  public var bookID: Int
  /// The byte offset in the file it was made in.
  public var byteOffset: Int
  /// The words at that offset (whitespace collapsed); a highlight's whole passage, capped at
  /// ``quoteLimit`` bytes.
  public var quote: String
  /// The reader's note; empty for none.
  public var note: String
  /// When it was made.
  public var createdAt: Date
  /// When it (its note) last changed; an import keeps the newer of two.
  public var updatedAt: Date
  /// Where a highlight ends (exclusive); nil for a bookmark, which marks a place.
  public var endOffset: Int?
  /// The heading of the chapter it is in, as the reader's table of contents found it when it
  /// was made; nil when unknown (made before chapters were kept, or in a book without any).
  public var chapter: String?

  /// The most bytes of a highlight's passage kept as its quote: enough for a long paragraph,
  /// bounded so an export stays near its size limit's count of notes.
  public static let quoteLimit = 4096

  /// `quote` cut to at most ``quoteLimit`` bytes, at a character's end.
  static func capped(_ quote: String) -> String {
    guard quote.utf8.count > quoteLimit else { return quote }
    var kept = ""
    var bytes = 0
    for character in quote {
      bytes += character.utf8.count
      if bytes > quoteLimit { break }
      kept.append(character)
    }
    return kept
  }

  /// Whether this marks a passage (a highlight) rather than a place.
  public var isHighlight: Bool { endOffset != nil }

  /// A bookmark with every field given.
  public init(
    key: String, bookID: Int, byteOffset: Int, quote: String, note: String, createdAt: Date,
    updatedAt: Date, endOffset: Int? = nil, chapter: String? = nil
  ) {
    self.key = key
    self.bookID = bookID
    self.byteOffset = byteOffset
    self.quote = quote
    self.note = note
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.endOffset = endOffset
    self.chapter = chapter
  }
}
