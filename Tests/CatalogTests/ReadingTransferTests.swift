import Foundation
import Gutendex
import Testing

@testable import Catalog

/// The export document's version 2: each favourite carries its reading position and bookmarks,
/// and an import merges them (the newer of two wins, nothing twice).
@Suite struct ReadingTransferTests {
  static func bookmark(_ key: String, book: Int, offset: Int, note: String, updated: Double)
    -> Bookmark
  {
    Bookmark(
      key: key, bookID: book, byteOffset: offset, quote: "words at \(offset)", note: note,
      createdAt: StoreFixtures.date(10), updatedAt: StoreFixtures.date(updated))
  }

  /// A store with three favourites; the second has two bookmarks and a position; with
  /// `unstarredNotes`, a book that is not a favourite has a bookmark too (which makes the
  /// export version 3: see HighlightTransferTests).
  func readStore(in directory: URL, name: String, unstarredNotes: Bool = false) throws -> (
    FavoritesStore, Library, [Book]
  ) {
    let store = try FavoritesStore(databaseURL: directory.appendingPathComponent(name))
    let books = Array(try StoreFixtures.english().prefix(3))
    for (index, book) in books.enumerated() {
      try store.add(book, at: StoreFixtures.date(Double(index)))
    }
    let library = Library(favorites: store)
    try library.saveBookmark(
      Self.bookmark("k2", book: books[1].id, offset: 900, note: "", updated: 20))
    try library.saveBookmark(
      Self.bookmark("k1", book: books[1].id, offset: 40, note: "a “note”\n", updated: 20))
    if unstarredNotes {
      try library.saveBookmark(
        Self.bookmark("k9", book: 999_999, offset: 1, note: "", updated: 20))
    }
    try library.setReadingPosition(
      id: books[1].id, ReadingPosition(line: 12, byteOffset: 700, quote: "the place"),
      at: StoreFixtures.date(30))
    return (store, library, books)
  }

  @Test func favouritesCarryTheirReadingAndTheDocumentIsVersion2() throws {
    try withScratchDirectory { directory in
      let (store, _, books) = try readStore(in: directory, name: "a.sqlite")
      let document = try store.exportDocument(exportedAt: StoreFixtures.date(100))
      let text = String(decoding: document, as: UTF8.self)
      #expect(text.hasSuffix("\n  \"format\": \"gutenberg-favorites\",\n  \"version\": 2\n}\n"))
      let object = try #require(try JSONSerialization.jsonObject(with: document) as? [String: Any])
      let entries = try #require(object["favorites"] as? [[String: Any]])
      #expect(entries.count == 3)
      #expect(entries[0]["bookmarks"] == nil && entries[0]["reading_position"] == nil)
      let marks = try #require(entries[1]["bookmarks"] as? [[String: Any]])
      #expect(marks.map { $0["key"] as? String } == ["k1", "k2"], "in reading order")
      #expect(marks[0]["note"] as? String == "a “note”\n")
      let position = try #require(entries[1]["reading_position"] as? [String: Any])
      #expect(position["byte_offset"] as? Int == 700 && position["quote"] as? String == "the place")
      #expect(!text.contains("\"favourite\""), "only favourites: no entry is marked")
      #expect(((entries[1]["book"] as? [String: Any])?["id"] as? Int) == books[1].id)
    }
  }

  @Test func theDocumentStreamsInWholePiecesThatMakeTheSameBytes() throws {
    try withScratchDirectory { directory in
      let (store, library, _) = try readStore(in: directory, name: "a.sqlite")
      // Enough favourites with bookmarks for several pieces.
      let many = try StoreFixtures.japanese() + StoreFixtures.e4()
      try store.add(many, at: StoreFixtures.date(50))
      for (index, book) in many.enumerated() {
        for mark in 0..<5 {
          try library.saveBookmark(
            Self.bookmark(
              "m\(index)-\(mark)", book: book.id, offset: mark * 10, note: "n", updated: 5))
        }
      }
      var pieces: [[UInt8]] = []
      let written = try store.writeExport(exportedAt: StoreFixtures.date(100)) {
        (piece: [UInt8]) throws(StoreError) in pieces.append(piece)
      }
      #expect(written == many.count + 3)
      #expect(pieces.count > 1, "a document of \(pieces.joined().count) bytes")
      for piece in pieces {
        #expect(String(validating: piece, as: UTF8.self) != nil, "each piece is whole UTF-8")
        #expect(piece.count < FavoritesStore.exportPiece + 64 * 1024)
      }
      #expect(
        Data(pieces.joined()) == (try store.exportDocument(exportedAt: StoreFixtures.date(100))))
    }
  }

  @Test func importMergesNewestWinsAndAddsNothingTwice() throws {
    try withScratchDirectory { directory in
      let (source, _, books) = try readStore(in: directory, name: "a.sqlite")
      let document = try source.exportDocument()
      let target = try FavoritesStore(databaseURL: directory.appendingPathComponent("b.sqlite"))
      let library = Library(favorites: target)
      // Here: k1 edited later (kept), k2 edited earlier (replaced), a newer position (kept).
      try library.saveBookmark(
        Self.bookmark("k1", book: books[1].id, offset: 40, note: "newer here", updated: 25))
      try library.saveBookmark(
        Self.bookmark("k2", book: books[1].id, offset: 900, note: "older here", updated: 15))
      try library.setReadingPosition(
        id: books[1].id, ReadingPosition(line: 3, byteOffset: 80, quote: "mine"),
        at: StoreFixtures.date(40))

      let summary = try target.importDocument(document, source: "a.json")
      #expect(summary.added == 3)
      #expect(summary.bookmarksAdded == 0 && summary.bookmarksUpdated == 1)
      #expect(summary.positionsUpdated == 0)
      let marks = try library.bookmarks(id: books[1].id)
      #expect(marks.map(\.key) == ["k1", "k2"])
      #expect(marks.map(\.note) == ["newer here", ""])
      #expect(try library.readingPosition(id: books[1].id)?.quote == "mine")

      let again = try target.importDocument(document, source: "a.json")
      #expect(again.bookmarksAdded + again.bookmarksUpdated + again.positionsUpdated == 0)
      #expect(try library.bookmarks().count == 2)

      // Into a fresh store, everything arrives as it was.
      let fresh = try FavoritesStore(databaseURL: directory.appendingPathComponent("c.sqlite"))
      let freshLibrary = Library(favorites: fresh)
      let first = try fresh.importDocument(document, source: "a.json")
      #expect(first.bookmarksAdded == 2 && first.positionsUpdated == 1)
      #expect(
        try freshLibrary.bookmarks() == (try Library(favorites: source).bookmarks(id: books[1].id)))
      let position = try #require(try freshLibrary.readingPosition(id: books[1].id))
      #expect(position.byteOffset == 700 && position.line == 12 && position.quote == "the place")
      #expect(position.updatedAt == StoreFixtures.date(30))
    }
  }
}
