import Foundation
import Gutendex
import GutendexEngine

/// The books an import document holds, checked entry by entry (see ``forEachItem``).
///
/// Accepts a `gutenberg-favorites` export (version 1, 2 with reading positions and
/// bookmarks, or 3 with books carried for their notes alone), a Gutendex page (`{"results": [...]}`)
/// or a bare JSON array of books.
struct FavoritesImport {
  struct Item {
    var book: Book
    /// The book with sorted keys, compact: equal bytes mean an equal snapshot.
    var canonical: [UInt8]
    /// From the export document; nil for pages and arrays (the import time is used).
    var addedAt: Int64?
    /// Where the reader was in the book (version 2).
    var position: ReadingPosition?
    /// The book's bookmarks (version 2).
    var bookmarks: [Bookmark] = []
    /// False for a book carried only for its notes (`"favourite": false`, version 3).
    var isFavorite = true
  }

  static let format = "gutenberg-favorites"
  /// The version written when favourites carry reading positions or bookmarks.
  static let version = 2
  /// The version written without them, which older versions of the program import too.
  static let plainVersion = 1
  /// The version written when books with notes but no star are carried too
  /// (`"favourite": false`), which older versions refuse rather than star those books.
  static let notesVersion = 3
  /// The versions read, as errors name them.
  static let versionsRead = "versions \(plainVersion), \(version) and \(notesVersion)"

  var items: [Item] = []

  /// Parses and validates all of `data`; `source` names it in errors.
  init(_ data: Data, source: String) throws(StoreError) {
    var items: [Item] = []
    do {
      try Self.forEachItem([UInt8](data), source: source) { items.append($0) }
    } catch let error as StoreError {
      throw error
    } catch {
      throw .invalidImport(source: source, location: "top level", reason: "\(error)")
    }
    self.items = items
  }

  /// Checks the document's shape and then hands `body` each item in document order, parsing
  /// one entry at a time: memory is the document's bytes plus one entry, whatever its length.
  ///
  /// Syntax, format, version, shape and `count` are checked before the first item; an item's
  /// own errors are thrown when met, so a caller writing as it goes does so in one transaction
  /// that the error rolls back. Errors of this walk are
  /// ``StoreError/invalidImport(source:location:reason:)``; `body`'s own pass through.
  static func forEachItem(_ bytes: [UInt8], source: String, _ body: (Item) throws -> Void)
    throws
  {
    try forEachItem(in: try WholeImportDocument(bytes, source: source), source: source, body)
  }

  /// ``forEachItem(_:source:_:)`` over a document however it is held (whole in memory, or in
  /// a file read a piece at a time): the same checks in the same order, the same errors.
  static func forEachItem(
    in document: some ImportDocument, source: String, _ body: (Item) throws -> Void
  ) throws {
    func invalid(_ location: String, _ reason: String) -> StoreError {
      .invalidImport(source: source, location: location, reason: reason)
    }
    let root = document.root
    switch root.first {
    case UInt8(ascii: "["):
      for (index, element) in try document.elements(of: root).enumerated() {
        try body(
          try item(document.value(of: element), path: "[\(index)]", addedAt: nil, source: source))
      }
    case UInt8(ascii: "{") where document.member("format") != nil:
      guard case .string(Self.format) = try document.value(of: document.member("format")!) else {
        throw invalid("format", "expected \"\(Self.format)\"")
      }
      guard let versionValue = document.member("version") else {
        throw invalid(
          "version",
          "missing (this program reads \(Self.versionsRead))")
      }
      let version = try document.value(of: versionValue)
      guard case .number(let text) = version else {
        throw invalid("version", "expected a number, found \(version.kind)")
      }
      guard let number = Int(text),
        [Self.plainVersion, Self.version, Self.notesVersion].contains(number)
      else {
        throw invalid(
          "version", "unsupported version \(text) (this program reads \(Self.versionsRead))")
      }
      guard let favorites = document.member("favorites"), favorites.first == UInt8(ascii: "[")
      else {
        throw invalid("favorites", "expected an array of favourites")
      }
      let entries = try document.elements(of: favorites)
      if let countValue = document.member("count") {
        guard case .number(let text) = try document.value(of: countValue),
          Int(text) == entries.count
        else {
          throw invalid("count", "does not match the \(entries.count) favourites in the document")
        }
      }
      for (index, element) in entries.enumerated() {
        let path = "favorites[\(index)]"
        let entry = try document.value(of: element)
        guard case .object = entry else {
          throw invalid(path, "expected an object, found \(entry.kind)")
        }
        var isFavorite = true
        if let mark = entry["favourite"] {
          guard case .bool(let value) = mark else {
            throw invalid("\(path).favourite", "expected true or false, found \(mark.kind)")
          }
          isFavorite = value
        }
        var addedAt: Int64?
        if isFavorite || entry["added_at"] != nil {
          guard case .string(let text) = entry["added_at"] ?? .null,
            let date = StoreTimestamp.parseISO8601(text)
          else {
            throw invalid(
              "\(path).added_at", "expected an ISO-8601 date such as \"2025-01-02T03:04:05Z\"")
          }
          addedAt = date
        }
        guard let book = entry["book"] else { throw invalid("\(path).book", "missing") }
        var item = try Self.item(book, path: "\(path).book", addedAt: addedAt, source: source)
        item.isFavorite = isFavorite
        try Self.readReading(entry, into: &item, path: path, source: source)
        try body(item)
      }
    case UInt8(ascii: "{") where document.member("results") != nil:
      guard let results = document.member("results"), results.first == UInt8(ascii: "[") else {
        throw invalid("results", "expected an array of books")
      }
      for (index, element) in try document.elements(of: results).enumerated() {
        try body(
          try item(
            document.value(of: element), path: "results[\(index)]", addedAt: nil, source: source))
      }
    default:
      let kind = (try? document.value(of: root).kind) ?? "a value"
      throw invalid(
        "top level",
        "expected a \(Self.format) document, a Gutendex page or an array of books, "
          + "found \(kind)")
    }
  }

  private static func item(
    _ value: StoreJSON, path: String, addedAt: Int64?, source: String
  ) throws(StoreError) -> Item {
    guard case .object = value else {
      throw .invalidImport(
        source: source, location: path, reason: "expected a book object, found \(value.kind)")
    }
    let book: Book
    do {
      // Keep the book's own member order, compacted: the server's shape, minus indentation.
      book = try Book.decode(from: Data(value.compact()), path: path)
    } catch {
      throw .invalidImport(source: source, location: error.path, reason: error.reason)
    }
    // The range the catalogue's index stores (a favourite is synced by its id).
    guard book.id > 0, IndexLimits.ids.contains(book.id) else {
      throw .invalidImport(
        source: source, location: "\(path).id",
        reason:
          "expected a positive Project Gutenberg number up to \(IndexLimits.ids.upperBound), "
          + "found \(book.id)")
    }
    return Item(book: book, canonical: value.compact(sortedKeys: true), addedAt: addedAt)
  }
}
