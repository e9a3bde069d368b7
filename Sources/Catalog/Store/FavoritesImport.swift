import Foundation
import Gutendex

/// The books an import document holds, fully validated before anything is written.
///
/// Accepts a `gutenberg-favorites` export (version 1, or 2 with reading positions and
/// bookmarks), a Gutendex page (`{"results": [...]}`)
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
  }

  static let format = "gutenberg-favorites"
  /// The version written when favourites carry reading positions or bookmarks.
  static let version = 2
  /// The version written without them, which older versions of the program import too.
  static let plainVersion = 1

  var items: [Item] = []

  /// Parses and validates `data`; `source` names it in errors.
  init(_ data: Data, source: String) throws(StoreError) {
    let bytes = [UInt8](data)
    func invalid(_ location: String, _ reason: String) -> StoreError {
      .invalidImport(source: source, location: location, reason: reason)
    }
    let root: StoreJSON
    do {
      root = try StoreJSON.parse(bytes)
    } catch {
      let location = JSONParser.lineAndColumn(of: error.offset, in: bytes)
      throw invalid(location, "not valid JSON: \(error.reason)")
    }
    switch root {
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        items.append(try Self.item(element, path: "[\(index)]", addedAt: nil, source: source))
      }
    case .object where root["format"] != nil:
      guard case .string(Self.format) = root["format"] else {
        throw invalid("format", "expected \"\(Self.format)\"")
      }
      guard let version = root["version"] else {
        throw invalid(
          "version",
          "missing (this program reads versions \(Self.plainVersion) and \(Self.version))")
      }
      guard case .number(let text) = version else {
        throw invalid("version", "expected a number, found \(version.kind)")
      }
      guard let number = Int(text), number == Self.plainVersion || number == Self.version else {
        throw invalid(
          "version",
          "unsupported version \(text) (this program reads versions \(Self.plainVersion) "
            + "and \(Self.version))")
      }
      guard case .array(let entries) = root["favorites"] ?? .null else {
        throw invalid("favorites", "expected an array of favourites")
      }
      for (index, entry) in entries.enumerated() {
        let path = "favorites[\(index)]"
        guard case .object = entry else {
          throw invalid(path, "expected an object, found \(entry.kind)")
        }
        guard case .string(let text) = entry["added_at"] ?? .null,
          let addedAt = StoreTimestamp.parseISO8601(text)
        else {
          throw invalid(
            "\(path).added_at", "expected an ISO-8601 date such as \"2025-01-02T03:04:05Z\"")
        }
        guard let book = entry["book"] else { throw invalid("\(path).book", "missing") }
        var item = try Self.item(book, path: "\(path).book", addedAt: addedAt, source: source)
        try Self.readReading(entry, into: &item, path: path, source: source)
        items.append(item)
      }
      if let count = root["count"] {
        guard case .number(let text) = count, Int(text) == entries.count else {
          throw invalid("count", "does not match the \(entries.count) favourites in the document")
        }
      }
    case .object where root["results"] != nil:
      guard case .array(let elements) = root["results"] ?? .null else {
        throw invalid("results", "expected an array of books")
      }
      for (index, element) in elements.enumerated() {
        items.append(
          try Self.item(element, path: "results[\(index)]", addedAt: nil, source: source))
      }
    default:
      throw invalid(
        "top level",
        "expected a \(Self.format) document, a Gutendex page or an array of books, "
          + "found \(root.kind)")
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
    guard book.id > 0 else {
      throw .invalidImport(
        source: source, location: "\(path).id",
        reason: "expected a positive Project Gutenberg number, found \(book.id)")
    }
    return Item(book: book, canonical: value.compact(sortedKeys: true), addedAt: addedAt)
  }
}
