import Foundation

/// The reading data of a version 2 or 3 export: each book's reading position and bookmarks
/// (highlights among them).
extension FavoritesImport {
  /// Reads `entry`'s `reading_position` and `bookmarks` (both optional) into `item`.
  static func readReading(
    _ entry: StoreJSON, into item: inout Item, path: String, source: String
  ) throws(StoreError) {
    func invalid(_ location: String, _ reason: String) -> StoreError {
      .invalidImport(source: source, location: location, reason: reason)
    }
    let id = item.book.id
    if let value = entry["reading_position"] {
      let at = "\(path).reading_position"
      guard case .object = value else { throw invalid(at, "expected an object") }
      item.position = ReadingPosition(
        line: try count(value["line"], at: "\(at).line", source: source),
        byteOffset: try value["byte_offset"].map { (offset) throws(StoreError) in
          try count(offset, at: "\(at).byte_offset", source: source)
        },
        quote: try value["quote"].map { (quote) throws(StoreError) in
          try text(quote, at: "\(at).quote", source: source)
        },
        updatedAt: StoreTimestamp.date(
          milliseconds: try date(value["updated_at"], at: "\(at).updated_at", source: source)))
    }
    guard let list = entry["bookmarks"] else { return }
    guard case .array(let marks) = list else {
      throw invalid("\(path).bookmarks", "expected an array of bookmarks")
    }
    for (index, mark) in marks.enumerated() {
      let at = "\(path).bookmarks[\(index)]"
      guard case .object = mark else { throw invalid(at, "expected an object") }
      let key = try text(mark["key"], at: "\(at).key", source: source)
      guard !key.isEmpty, key.utf8.count <= 100 else {
        throw invalid("\(at).key", "expected the bookmark's id (1 to 100 characters)")
      }
      let byteOffset = try count(mark["byte_offset"], at: "\(at).byte_offset", source: source)
      let end = try mark["end_offset"].map { (end) throws(StoreError) in
        try count(end, at: "\(at).end_offset", source: source)
      }
      if let end, end < byteOffset {
        throw invalid("\(at).end_offset", "expected an offset at or after byte_offset")
      }
      item.bookmarks.append(
        Bookmark(
          key: key, bookID: id,
          byteOffset: byteOffset,
          quote: try text(mark["quote"], at: "\(at).quote", source: source),
          note: try mark["note"].map { (note) throws(StoreError) in
            try text(note, at: "\(at).note", source: source)
          } ?? "",
          createdAt: StoreTimestamp.date(
            milliseconds: try date(mark["created_at"], at: "\(at).created_at", source: source)),
          updatedAt: StoreTimestamp.date(
            milliseconds: try date(mark["updated_at"], at: "\(at).updated_at", source: source)),
          endOffset: end,
          chapter: try mark["chapter"].map { (chapter) throws(StoreError) in
            try text(chapter, at: "\(at).chapter", source: source)
          }))
    }
  }

  /// A whole number, 0 or more.
  private static func count(_ value: StoreJSON?, at path: String, source: String)
    throws(StoreError) -> Int
  {
    guard case .number(let literal)? = value, let number = Int(literal), number >= 0 else {
      throw .invalidImport(source: source, location: path, reason: "expected a whole number ≥ 0")
    }
    return number
  }

  private static func text(_ value: StoreJSON?, at path: String, source: String)
    throws(StoreError) -> String
  {
    guard case .string(let text)? = value else {
      throw .invalidImport(source: source, location: path, reason: "expected a string")
    }
    // SQLite's text ends at U+0000: kept, the rest would be lost without a word.
    guard !text.utf8.contains(0) else {
      throw .invalidImport(
        source: source, location: path,
        reason: "holds the character U+0000 (NUL), which the store cannot keep")
    }
    return text
  }

  private static func date(_ value: StoreJSON?, at path: String, source: String)
    throws(StoreError) -> Int64
  {
    guard case .string(let text)? = value, let date = StoreTimestamp.parseISO8601(text) else {
      throw .invalidImport(
        source: source, location: path,
        reason: "expected an ISO-8601 date such as \"2025-01-02T03:04:05Z\"")
    }
    return date
  }
}
