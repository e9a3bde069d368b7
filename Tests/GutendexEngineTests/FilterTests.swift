import Foundation
import Gutendex
import Testing

@testable import GutendexEngine

@Suite("Filters against the reference model")
struct FilterTests {
  /// Query strings (raw, as sent) and their decoded parameters for the reference model.
  static let cases: [(query: String, parameters: [String: String])] = [
    ("search=dickens", ["search": "dickens"]),
    ("search=DICKENS", ["search": "DICKENS"]),
    ("search=great%20expectations", ["search": "great expectations"]),
    ("search=expectations+dickens", ["search": "expectations dickens"]),
    ("search=dickens%20%20great", ["search": "dickens  great"]),
    ("search=", ["search": ""]),
    ("search=%25", ["search": "%"]),
    ("search=shelley%20frank", ["search": "shelley frank"]),
    ("search=the%20of%20and", ["search": "the of and"]),
    ("languages=fr", ["languages": "fr"]),
    ("languages=en,fr", ["languages": "en,fr"]),
    ("languages=EN,De", ["languages": "EN,De"]),
    ("languages=en,%20fr", ["languages": "en, fr"]),
    ("languages=", ["languages": ""]),
    ("languages=xx", ["languages": "xx"]),
    ("languages=enm,grc,ang", ["languages": "enm,grc,ang"]),
    ("topic=fiction", ["topic": "fiction"]),
    ("topic=FICTION", ["topic": "FICTION"]),
    ("topic=", ["topic": ""]),
    ("topic=Category:%20Novels", ["topic": "Category: Novels"]),
    ("author_year_start=1800", ["author_year_start": "1800"]),
    ("author_year_end=-100", ["author_year_end": "-100"]),
    (
      "author_year_start=1800&author_year_end=1850",
      ["author_year_start": "1800", "author_year_end": "1850"]
    ),
    ("author_year_start=abc", [:]),
    ("author_year_start=%2B1800", ["author_year_start": "+1800"]),
    ("author_year_end=%201700", ["author_year_end": " 1700"]),
    ("copyright=true", ["copyright": "true"]),
    ("copyright=false,true", ["copyright": "false,true"]),
    ("copyright=null", ["copyright": "null"]),
    ("copyright=yes", ["copyright": "yes"]),
    ("copyright=True", ["copyright": "True"]),
    ("ids=84,1342,11", ["ids": "84,1342,11"]),
    ("ids=84,%201342", ["ids": "84, 1342"]),
    ("ids=", ["ids": ""]),
    ("ids=84,x", ["ids": "84,x"]),
    ("ids=99999999999999999999999", ["ids": "99999999999999999999999"]),
    ("mime_type=text/", ["mime_type": "text/"]),
    ("mime_type=TEXT/", ["mime_type": "TEXT/"]),
    ("mime_type=audio", ["mime_type": "audio"]),
    ("mime_type=", ["mime_type": ""]),
    ("mime_type=text/plain%3B", ["mime_type": "text/plain;"]),
    ("sort=ascending", ["sort": "ascending"]),
    ("sort=descending", ["sort": "descending"]),
    ("sort=popular", ["sort": "popular"]),
    ("sort=bogus", ["sort": "bogus"]),
    (
      "languages=en&topic=fiction&sort=ascending",
      ["languages": "en", "topic": "fiction", "sort": "ascending"]
    ),
    (
      "search=a&author_year_end=1900&copyright=false",
      ["search": "a", "author_year_end": "1900", "copyright": "false"]
    ),
    ("languages=en&languages=fr", ["languages": "fr"]),
    ("foo=bar&languages=de", ["languages": "de"]),
  ]

  @Test("every parameter matches the reference model, in order", arguments: cases)
  func matchesReference(query: String, parameters: [String: String]) throws {
    let engine = try Fixture.engine()
    let expected = ReferenceModel(try Fixture.books()).ids(parameters)
    let actual = try allIDs(engine, query)
    #expect(actual.count == expected.count)
    #expect(actual.ids == expected)
  }

  @Test func emptyLanguagesYieldsNothingAndEmptyIDsYieldsEverything() throws {
    let engine = try Fixture.engine()
    #expect(try allIDs(engine, "languages=").count == 0)
    #expect(try allIDs(engine, "copyright=yes").count == 0)
    #expect(try allIDs(engine, "ids=").count == engine.bookCount)
    #expect(try allIDs(engine, "ids=1,2,three").count == engine.bookCount)
    #expect(try allIDs(engine, "ids=99999999999999999999999").count == 0)
    #expect(try allIDs(engine, "mime_type=TEXT/").count == 0)
  }

  @Test func emptyTopicKeepsBooksWithASubjectOrShelf() throws {
    let engine = try Fixture.engine()
    let books = try Fixture.books()
    let bare = books.filter {
      ($0["subjects"] as? [String] ?? []).isEmpty && ($0["bookshelves"] as? [String] ?? []).isEmpty
    }
    try #require(!bare.isEmpty, "the fixture should hold books without subjects and shelves")
    #expect(try allIDs(engine, "topic=").count == books.count - bare.count)
  }

  @Test func searchMatchesTitlesAndAuthorsButNotTranslatorsOrSubjects() throws {
    let engine = try GutendexEngine(books: [
      syntheticBook(id: 1, title: "Zebra Tales", authors: [("Quill, Ann", 1800, 1870)]),
      syntheticBook(id: 2, title: "Other", authors: [("Zebrafield, Bo", nil, nil)]),
      syntheticBook(id: 3, title: "Third", subjects: ["Zebras -- Fiction"]),
      Data(
        String(decoding: syntheticBook(id: 4, title: "Fourth"), as: UTF8.self)
          .replacingOccurrences(
            of: #""translators":[]"#,
            with: #""translators":[{"name":"Zebra, T.","birth_year":null,"death_year":null}]"#
          ).utf8),
    ])
    #expect(try allIDs(engine, "search=zebra&sort=ascending").ids == [1, 2])
    #expect(try allIDs(engine, "search=zebra%20quill").ids == [1])
    #expect(try allIDs(engine, "search=quill%20tales").ids == [1])
    #expect(try allIDs(engine, "topic=zebra").ids == [3])
    // Only the first 32 terms count: a 33rd that matches nothing is ignored.
    let terms = Array(repeating: "zebra", count: 32).joined(separator: "%20")
    #expect(try allIDs(engine, "search=\(terms)%20nomatch&sort=ascending").ids == [1, 2])
    #expect(try allIDs(engine, "search=\(terms.dropLast(6))%20nomatch").count == 0)
  }

  @Test func authorYearsMayBeMetByDifferentAuthorsAndNeedAuthors() throws {
    let engine = try GutendexEngine(books: [
      syntheticBook(id: 1, authors: [("Old", 1700, 1750), ("Young", 1900, 1950)]),
      syntheticBook(id: 2, authors: []),
      syntheticBook(id: 3, authors: [("Unknown", nil, nil)]),
      syntheticBook(id: 4, authors: [("Middle", 1780, 1820)]),
      syntheticBook(id: 5, authors: [("Homer", -750, nil)]),
    ])
    #expect(
      try allIDs(engine, "author_year_start=1800&author_year_end=1760&sort=ascending").ids == [1])
    #expect(try allIDs(engine, "author_year_start=1800&sort=ascending").ids == [1, 4])
    #expect(try allIDs(engine, "author_year_end=-700").ids == [5])
    #expect(try allIDs(engine, "author_year_start=-100000&sort=ascending").ids == [1, 4, 5])
    #expect(try allIDs(engine, "author_year_start=1.5").count == 5)
    #expect(try allIDs(engine, "author_year_end=%2B1760&sort=ascending").ids == [1, 5])
  }

  @Test func popularSortBreaksTiesByAscendingID() throws {
    let engine = try GutendexEngine(books: [
      syntheticBook(id: 30, downloads: 5), syntheticBook(id: 10, downloads: 5),
      syntheticBook(id: 20, downloads: 9), syntheticBook(id: 5, downloads: 0),
    ])
    #expect(try allIDs(engine, "").ids == [20, 10, 30, 5])
    #expect(try allIDs(engine, "sort=descending").ids == [30, 20, 10, 5])
    #expect(try allIDs(engine, "sort=ascending").ids == [5, 10, 20, 30])
  }

  @Test func copyrightNullIsItsOwnToken() throws {
    let engine = try GutendexEngine(books: [
      syntheticBook(id: 1, copyright: true), syntheticBook(id: 2, copyright: false),
      syntheticBook(id: 3, copyright: nil),
    ])
    #expect(try allIDs(engine, "copyright=null").ids == [3])
    #expect(try allIDs(engine, "copyright=true,null&sort=ascending").ids == [1, 3])
    #expect(try allIDs(engine, "copyright=true,yes").ids == [1])
    #expect(try allIDs(engine, "copyright=").count == 0)
  }

  @Test func hiddenBooksAreSkipped() throws {
    let hidden = Data(#"{"id":7,"title":null,"download_count":3}"#.utf8)
    let engine = try GutendexEngine(books: [hidden, syntheticBook(id: 8)])
    #expect(engine.bookCount == 1)
    #expect(try get(engine, "/books/7/").status == 404)
  }

  @Test func badInputThrows() {
    #expect(throws: EngineError.self) { try GutendexEngine(books: [Data("{\"id\":".utf8)]) }
    #expect(throws: EngineError.duplicateID(1)) {
      try GutendexEngine(books: [syntheticBook(id: 1), syntheticBook(id: 1)])
    }
  }
}
