import Catalog
import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Terminal

/// Titles with MARC subfield markers (`Peter Pan : $b [Peter and Wendy]`) are shown with plain
/// punctuation on every screen and in file names; `--json` keeps the server's bytes; a book
/// with no author says so instead of leaving the column empty.
@Suite struct SubfieldMarkerTests {
  /// The real books of `subfield-markers.jsonl`, by id.
  static func books() throws -> [Int: Book] {
    let lines = try FixtureFiles.data("subfield-markers.jsonl").split(separator: UInt8(ascii: "\n"))
    var books: [Int: Book] = [:]
    for line in lines {
      let book = try Book.decode(from: Data(line))
      books[book.id] = book
    }
    return books
  }

  @Test(arguments: [
    (16, "Peter Pan: [Peter and Wendy]"),
    (1981, "The right to read = Le droit de lire"),
    (15738, "Married life; or, The true romance"),
    (34903, "Dress design: an account of costume for artists & dressmakers"),
    (142, "The $30,000 Bequest, and Other Stories"),
    (50921, "$1,000 a Plate"),
  ])
  func realTitlesReadAsPunctuation(id: Int, expected: String) throws {
    let book = try #require(try Self.books()[id])
    #expect(Sanitizer.title(book.title) == expected)
  }

  @Test func markersInTheMiddleAndBeforePunctuation() throws {
    let books = try Self.books()
    let froebel = Sanitizer.title(try #require(books[16434]).title)
    #expect(froebel.hasPrefix("Autobiography of Friedrich Froebel / translated and annotated"))
    let events = Sanitizer.title(try #require(books[16513]).title)
    #expect(events.hasPrefix("World's War Events, Volume 3: Beginning with"))
    let aspects = Sanitizer.title(try #require(books[76770]).title)
    #expect(aspects.hasPrefix("Aspects of Jewish power in the United States: volume IV of"))
    let pinnock = Sanitizer.title(try #require(books[16387]).title)
    #expect(pinnock.hasSuffix("at the end of each section.; By Wm. C. Taylor."))
    #expect(pinnock.contains("History of Rome: to which"))
    for book in books.values {
      #expect(!Sanitizer.title(book.title).contains(/(^| )\$[a-z]\b/), "\(book.title)")
    }
  }

  @Test(arguments: [
    ("$a Title $b", "Title"), ("Word $z", "Word"), ("a $b b $c c", "a: b / c"),
    ("US$b and $bs", "US$b and $bs"), ("Cost : $b", "Cost"),
    ("Title \u{1B}[31m: $b sub", "Title: sub"),
  ])
  func edgeCases(raw: String, expected: String) {
    #expect(Sanitizer.title(raw) == expected)
  }

  @Test func listsDetailsLinksAndLibraryShowTheCleanTitle() throws {
    let books = try Self.books()
    let peter = try #require(books[16])
    let row = BookRow(number: 1, book: peter)
    let table = BookTable.lines(rows: [row], marks: [" "], width: 100, style: .plain)
    #expect(table[0].contains("Peter Pan: [Peter and Wendy]"), "\(table)")
    let details = DetailScreen(book: peter, isFavorite: false).lines(width: 100, style: .plain)
    #expect(details[0] == "Peter Pan: [Peter and Wendy]")
    let links = LinksScreen(book: peter).lines(width: 100, style: .plain)
    #expect(links[0].hasSuffix("Peter Pan: [Peter and Wendy]"), "\(links)")
    #expect(TSVRenderer.line(peter).split(separator: "\t")[1] == "Peter Pan: [Peter and Wendy]")
    let entry = LibraryEntry(
      id: 16, format: "epub", title: peter.title, path: "/tmp/16-peter-pan.epub", size: 1,
      fetchedAt: SampleScreens.now, validator: nil, url: "https://www.gutenberg.org/ebooks/16")
    let library = LibraryScreen(rows: [.init(entry: entry, isPresent: true)], timeZone: .gmt)
    #expect(library.lines(width: 100, style: .plain)[1] == "16  Peter Pan: [Peter and Wendy]")
    #expect(library.tsvLines[0].hasSuffix("\tPeter Pan: [Peter and Wendy]"))
  }

  @Test func aBookWithNoAuthorSaysSo() throws {
    let beowulf = try #require(try Self.books()[16328])
    try #require(beowulf.authors.isEmpty)
    let rows = [BookRow(number: 1, book: beowulf)]
    for width in [100, 60] {
      let line = BookTable.lines(rows: rows, marks: [" "], width: width, style: .plain)[0]
      #expect(line.contains("unknown a"), "\(line)")
    }
    let styled = BookTable.lines(
      rows: rows, marks: [" "], width: 100, style: Style(isEnabled: true))[0]
    #expect(styled.contains(Style(isEnabled: true).dim("unknown author")), "\(styled)")
  }

  @Test func fileNamesUseTheCleanTitle() throws {
    let peter = try #require(try Self.books()[16])
    let choice = try BookFormat.choose(nil, for: peter)
    let name = DownloadNaming.fileName(id: 16, title: Sanitizer.title(peter.title), choice: choice)
    #expect(name.hasPrefix("16-peter-pan-peter-and-wendy"), "\(name)")
  }
}
