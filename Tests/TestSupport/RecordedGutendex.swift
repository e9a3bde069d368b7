import Foundation
import Gutendex

/// The Gutendex the captures in `Screens/` are made against: the shared double over every book
/// of the recordings (for `/books/ID/` and any other query), answering each recorded listing
/// (page 1 of its query) with the recording itself, so counts are the real server's. The
/// session tests and the built binary (over the loopback server) see the same answers.
public enum RecordedGutendex {
  /// A book asked for is not on the recording named.
  public struct NoBook: Error, CustomStringConvertible {
    /// The book's id.
    public var id: Int
    /// The recording's short name.
    public var recording: String
    /// One line for the test report.
    public var description: String { "no book \(id) in \(recording)" }
  }

  /// The recordings whose books the double holds.
  public static let recordings = [
    "en__page_775", "fr__page_102", "hu__page_10", "fr__page_9", "en__page_536", "en__page_512",
    "de__page_17", "en__page_87", "ja__page_1", "zh__page_1", "ar__page_1", "ru__page_1",
    "de__page_1", "en__page_1835", "el__page_1", "e4-2025-page1",
    "e2-2022-search-great-expectations", "e2-2022-no-results",
  ]

  /// The recorded listings: the query's parameters (page dropped) and the recording that
  /// answers its page 1.
  public static let listings: [([String: String], String)] = [
    ([:], "e4-2025-page1"),
    (["search": "great expectations", "languages": "en"], "e2-2022-search-great-expectations"),
    (["languages": "ru"], "ru__page_1"), (["languages": "de"], "de__page_1"),
    (["languages": "zh"], "zh__page_1"),
  ]

  /// A recording decoded.
  public static func page(_ name: String) throws -> BookPage {
    try BookPage.decode(from: FixtureFiles.recording(name))
  }

  /// The double, answering the recorded listings and the search for "dream".
  public static func server() throws -> GutendexDouble {
    var seen = Set<Int>()
    let books = try recordings.flatMap { try page($0).results }
      .filter { seen.insert($0.id).inserted }
    let server = try GutendexDouble(books: books)
    for (parameters, name) in listings {
      server.answer(where: { listing($0) == parameters }, with: try FixtureFiles.recording(name))
    }
    let dream = page(of: try dreamBooks())
    server.answer(where: { listing($0)?["search"] == "dream" }, with: dream)
    return server
  }

  /// What a search for "dream" finds (`Screens/narrow.txt`): a 958-character English title,
  /// Japanese and Chinese titles, and a long English one, for the narrow layout.
  public static func dreamBooks() throws -> [Book] {
    func book(_ id: Int, in name: String) throws -> Book {
      guard let book = try page(name).results.first(where: { $0.id == id }) else {
        throw NoBook(id: id, recording: name)
      }
      return book
    }
    var books = [try book(60045, in: "en__page_87")]
    books += try page("ja__page_1").results.prefix(5)
    books += try page("zh__page_1").results.prefix(5)
    books.append(try book(43282, in: "en__page_775"))
    return books
  }

  /// A page of `books` in the server's format, as one search answers it.
  public static func page(of books: [Book]) -> Data {
    let results = books.map { String(decoding: $0.rawJSON, as: UTF8.self) }
    return Data(
      (#"{"count":\#(books.count),"next":null,"previous":null,"results":["#
        + results.joined(separator: ",") + "]}").utf8)
  }

  /// The parameters of a request for page 1 of `/books/` (page dropped), nil for anything else.
  public static func listing(_ url: URL) -> [String: String]? {
    guard GutendexDouble.page(of: url) == 1 else { return nil }
    var parameters: [String: String] = [:]
    for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    where item.name != "page" {
      parameters[item.name] = item.value ?? ""
    }
    return parameters
  }

  /// The 1-based row of book `id` on the recording `name`, as the browser numbers it.
  public static func row(of id: Int, in name: String) throws -> Int {
    guard let index = try page(name).results.firstIndex(where: { $0.id == id }) else {
      throw NoBook(id: id, recording: name)
    }
    return index + 1
  }
}
