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

  public init(count: Int, next: String? = nil, previous: String? = nil, results: [Book]) {
    self.count = count
    self.next = next
    self.previous = previous
    self.results = results
  }

  /// The number of pages for ``count`` results.
  public var pageCount: Int { BookQuery.pageCount(forResults: count) }

  /// Decodes a page, keeping each book's exact bytes.
  public static func decode(from data: Data) throws(BookDecodingError) -> BookPage {
    let scanner = JSONScanner(data)
    let members: [(key: String, value: Range<Int>)]
    do throws(JSONScanner.Failure) {
      let start = scanner.skipWhitespace(0, scanner.bytes.count)
      let end = try scanner.skipValue(start, scanner.bytes.count)
      members = try scanner.objectMembers(in: start..<end)
      if !scanner.onlyWhitespace(after: end) {
        throw JSONScanner.Failure(offset: end, reason: "unexpected data after the object")
      }
    } catch {
      throw BookDecodingError(path: "", reason: "\(error.reason) at byte \(error.offset)")
    }
    var count: Int?
    var next: String?
    var previous: String?
    var results: [Book]?
    for (key, range) in members {
      do {
        switch key {
        case "count":
          guard !scanner.isString(range), let text = try scanner.scalarText(range),
            let value = Int(text), value >= 0
          else {
            throw BookDecodingError(path: "count", reason: "expected a non-negative integer")
          }
          count = value
        case "next":
          next = try Self.link(scanner, range, key: key)
        case "previous":
          previous = try Self.link(scanner, range, key: key)
        case "results":
          let elements = try scanner.arrayElements(in: range)
          var books: [Book] = []
          books.reserveCapacity(elements.count)
          for (index, element) in elements.enumerated() {
            books.append(
              try Book.decode(from: Data(scanner.bytes[element]), path: "results[\(index)]"))
          }
          results = books
        default:
          continue
        }
      } catch let error as BookDecodingError {
        throw error
      } catch let error as JSONScanner.Failure {
        throw BookDecodingError(path: key, reason: "\(error.reason) at byte \(error.offset)")
      } catch {
        throw BookDecodingError(path: key, reason: String(describing: error))
      }
    }
    guard let results else {
      throw BookDecodingError(path: "results", reason: "missing key 'results'")
    }
    return BookPage(count: count ?? results.count, next: next, previous: previous, results: results)
  }

  /// A `next`/`previous` value: a string or null, nothing else.
  private static func link(_ scanner: JSONScanner, _ range: Range<Int>, key: String)
    throws(BookDecodingError) -> String?
  {
    do throws(JSONScanner.Failure) {
      if scanner.isString(range) { return try scanner.scalarText(range) }
      if try scanner.scalarText(range) == nil { return nil }
    } catch {
      throw BookDecodingError(path: key, reason: "\(error.reason) at byte \(error.offset)")
    }
    throw BookDecodingError(path: key, reason: "expected a URL string or null")
  }
}
