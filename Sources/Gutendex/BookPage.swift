import Foundation

/// One page of `/books/` results: the total count, links to the neighbouring pages, the books.
public struct BookPage: Sendable, Hashable {
  /// How many books match the query in all (not just on this page).
  public var count: Int
  /// The server's link to the next page, as it sent it (often another host or `http://`).
  public var next: String?
  /// The server's link to the previous page, as it sent it.
  public var previous: String?
  /// Up to 32 books.
  public var results: [Book]
  /// Books of `results` that could not be read and were left out (only by
  /// ``decodeSkippingBadBooks(from:)``), each named by its id when it has one, and why.
  public var skipped: [String] = []

  /// A page from its parts (tests and fallbacks).
  public init(count: Int, next: String? = nil, previous: String? = nil, results: [Book]) {
    self.count = count
    self.next = next
    self.previous = previous
    self.results = results
  }

  /// The number of pages for ``count`` results.
  public var pageCount: Int { BookQuery.pageCount(forResults: count) }

  /// Decodes a page, keeping each book's exact bytes.
  ///
  /// A first, structural pass finds the page's members and each book's bytes (so a truncated
  /// body is a page error); each book is then decoded on its own, so its errors name its path.
  public static func decode(from data: Data) throws(BookDecodingError) -> BookPage {
    try decode(from: data, skippingBadBooks: false)
  }

  /// Decodes a page as ``decode(from:)`` does, except that a book that cannot be read is left
  /// out and named in ``skipped`` (a sync keeps the rest of the page); a page whose structure
  /// is broken still fails.
  public static func decodeSkippingBadBooks(from data: Data) throws(BookDecodingError)
    -> BookPage
  {
    try decode(from: data, skippingBadBooks: true)
  }

  private static func decode(from data: Data, skippingBadBooks: Bool) throws(BookDecodingError)
    -> BookPage
  {
    var parser = JSONParser([UInt8](data))
    let members: [(key: String, value: Range<Int>)]
    do throws(JSONParseError) {
      let whole = try parser.skipValueUnchecked()
      members = try objectMembers(parser.parser(at: whole.lowerBound))
      parser.skipWhitespace()
      if parser.position < parser.bytes.count {
        throw JSONParseError(offset: whole.upperBound, reason: "unexpected data after the object")
      }
    } catch {
      throw BookDecodingError(path: "", reason: error.description)
    }
    var count: Int?
    var next: String?
    var previous: String?
    var results: [Book]?
    var skipped: [String] = []
    for (key, range) in members {
      switch key {
      case "count":
        guard parser.bytes[range.lowerBound] != UInt8(ascii: "\""),
          let value = Int(String(decoding: parser.bytes[range], as: UTF8.self)), value >= 0
        else {
          throw BookDecodingError(path: "count", reason: "expected a non-negative integer")
        }
        count = value
      case "next":
        next = try Self.link(parser.parser(at: range.lowerBound), range, key: key)
      case "previous":
        previous = try Self.link(parser.parser(at: range.lowerBound), range, key: key)
      case "results":
        (results, skipped) = try Self.books(
          parser.parser(at: range.lowerBound), data: data, skippingBadBooks: skippingBadBooks)
      default:
        continue
      }
    }
    guard let results else {
      throw BookDecodingError(path: "results", reason: "missing key 'results'")
    }
    var page = BookPage(
      count: count ?? results.count, next: next, previous: previous, results: results)
    page.skipped = skipped
    return page
  }

  /// The members of the object at the parser's position: each key with its value's raw range.
  private static func objectMembers(_ parser: JSONParser) throws(JSONParseError)
    -> [(key: String, value: Range<Int>)]
  {
    var parser = parser
    guard parser.peek() == UInt8(ascii: "{") else { throw parser.failure("a JSON object") }
    var members: [(String, Range<Int>)] = []
    parser.position += 1
    if parser.take(UInt8(ascii: "}")) { return [] }
    repeat {
      guard parser.peek() == UInt8(ascii: "\"") else { throw parser.failure("a key") }
      let key = try parser.readString()
      guard parser.take(UInt8(ascii: ":")) else { throw parser.failure("':'") }
      members.append((key, try parser.skipValueUnchecked()))
    } while parser.take(UInt8(ascii: ","))
    guard parser.take(UInt8(ascii: "}")) else { throw parser.failure("',' or '}'") }
    return members
  }

  /// The books of the `results` array at the parser's position.
  private static func books(_ parser: JSONParser, data: Data, skippingBadBooks: Bool)
    throws(BookDecodingError) -> (books: [Book], skipped: [String])
  {
    var parser = parser
    var elements: [Range<Int>] = []
    do throws(JSONParseError) {
      guard parser.peek() == UInt8(ascii: "[") else { throw parser.failure("an array") }
      parser.position += 1
      if !parser.take(UInt8(ascii: "]")) {
        repeat {
          elements.append(try parser.skipValueUnchecked())
        } while parser.take(UInt8(ascii: ","))
        guard parser.take(UInt8(ascii: "]")) else { throw parser.failure("',' or ']'") }
      }
    } catch {
      throw BookDecodingError(path: "results", reason: error.description)
    }
    var books: [Book] = []
    var skipped: [String] = []
    books.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      let bytes = data[data.startIndex + element.lowerBound..<data.startIndex + element.upperBound]
      // The fast path reads the book in place; anything else goes to `Book.decode` alone.
      var reader = JSONParser(parser.bytes, options: Book.fastOptions)
      reader.position = element.lowerBound
      if var book = Book.decodeFast(&reader), reader.position == element.upperBound {
        book.rawJSON = Data(bytes)
        books.append(book)
      } else if !skippingBadBooks {
        books.append(try Book.decode(from: Data(bytes), path: "results[\(index)]"))
      } else {
        do {
          books.append(try Book.decode(from: Data(bytes), path: "results[\(index)]"))
        } catch {
          skipped.append("\(Self.bookName(Data(bytes)) ?? "results[\(index)]"): \(error)")
        }
      }
    }
    return (books, skipped)
  }

  /// "book N" for a book object whose `id` is a number, to name a book that cannot be read.
  private static func bookName(_ data: Data) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let id = object["id"] as? Int
    else { return nil }
    return "book \(id)"
  }

  /// A `next`/`previous` value: a string or null, nothing else.
  private static func link(_ parser: JSONParser, _ range: Range<Int>, key: String)
    throws(BookDecodingError) -> String?
  {
    var parser = parser
    do throws(JSONParseError) {
      if parser.peek() == UInt8(ascii: "\"") { return try parser.readString() }
      if parser.readNull(), parser.position == range.upperBound { return nil }
    } catch {
      throw BookDecodingError(path: key, reason: error.description)
    }
    throw BookDecodingError(path: key, reason: "expected a URL string or null")
  }
}
