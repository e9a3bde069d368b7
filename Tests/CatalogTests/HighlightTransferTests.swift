import Foundation
import Gutendex
import Testing

@testable import Catalog

/// Highlights (bookmarks over a passage, with a note and a chapter) in the store, and the notes
/// of books without a star in the export document (version 3, `"favourite": false`).
@Suite struct HighlightTransferTests {
  static func highlight(_ key: String, book: Int, note: String, updated: Double = 20) -> Bookmark {
    Bookmark(
      key: key, bookID: book, byteOffset: 1200, quote: "It was on a dreary night of November",
      note: note, createdAt: StoreFixtures.date(10), updatedAt: StoreFixtures.date(updated),
      endOffset: 1236, chapter: "CHAPTER V.")
  }

  /// A store with one favourite, and a highlight with a note on a book that is not one.
  func store(in directory: URL, name: String) throws -> (FavoritesStore, Library, Book) {
    let store = try FavoritesStore(databaseURL: directory.appendingPathComponent(name))
    let book = try #require(try StoreFixtures.english().first)
    try store.add(book, at: StoreFixtures.date(1))
    let library = Library(favorites: store)
    try library.saveBookmark(Self.highlight("h1", book: 84, note: "the creature wakes"))
    return (store, library, book)
  }

  @Test func aHighlightKeepsItsEndItsChapterAndItsNote() throws {
    try withScratchDirectory { directory in
      let (store, library, _) = try store(in: directory, name: "a.sqlite")
      let plain = Bookmark(
        key: "b1", bookID: 84, byteOffset: 50, quote: "a place", note: "",
        createdAt: StoreFixtures.date(5), updatedAt: StoreFixtures.date(5))
      try library.saveBookmark(plain)
      store.close()
      // Read back from the file by a new store: what was written, not what was kept in memory.
      let reopened = Library(
        favorites: try FavoritesStore(databaseURL: directory.appendingPathComponent("a.sqlite")))
      let marks = try reopened.bookmarks(id: 84)
      #expect(marks.map(\.key) == ["b1", "h1"], "by place in the book")
      #expect(marks[0].endOffset == nil && marks[0].chapter == nil && !marks[0].isHighlight)
      #expect(marks[1] == Self.highlight("h1", book: 84, note: "the creature wakes"))
      #expect(marks[1].isHighlight)
    }
  }

  @Test func aBookWithNotesButNoStarTravelsMarkedNotAFavourite() throws {
    try withScratchDirectory { directory in
      let (store, _, book) = try store(in: directory, name: "a.sqlite")
      let document = try store.exportDocument(exportedAt: StoreFixtures.date(100))
      let text = String(decoding: document, as: UTF8.self)
      #expect(text.hasSuffix("\n  \"format\": \"gutenberg-favorites\",\n  \"version\": 3\n}\n"))
      let object = try #require(try JSONSerialization.jsonObject(with: document) as? [String: Any])
      #expect(object["count"] as? Int == 2, "count counts every entry")
      let entries = try #require(object["favorites"] as? [[String: Any]])
      #expect(entries.count == 2)
      #expect(entries[0]["favourite"] == nil)
      #expect((entries[0]["book"] as? [String: Any])?["id"] as? Int == book.id)
      #expect(entries[1]["favourite"] as? Bool == false)
      #expect(entries[1]["added_at"] == nil)
      #expect((entries[1]["book"] as? [String: Any])?["id"] as? Int == 84)
      let marks = try #require(entries[1]["bookmarks"] as? [[String: Any]])
      #expect(marks.count == 1)
      #expect(marks[0]["note"] as? String == "the creature wakes")
      #expect(marks[0]["chapter"] as? String == "CHAPTER V.")
      #expect(marks[0]["end_offset"] as? Int == 1236 && marks[0]["byte_offset"] as? Int == 1200)
      #expect(marks[0]["quote"] as? String == "It was on a dreary night of November")
      // Streamed, the same bytes.
      var pieces: [UInt8] = []
      try store.writeExport(exportedAt: StoreFixtures.date(100)) {
        (piece: [UInt8]) throws(StoreError) in pieces += piece
      }
      #expect(Data(pieces) == document)
    }
  }

  @Test func importIntoAFreshStoreMergesTheNotesAndStarsNothingMore() throws {
    try withScratchDirectory { directory in
      let (source, _, book) = try store(in: directory, name: "a.sqlite")
      let file = directory.appendingPathComponent("export.json")
      try source.export(to: file)
      let fresh = try FavoritesStore(databaseURL: directory.appendingPathComponent("b.sqlite"))
      let library = Library(favorites: fresh)
      // Streamed from the file, as `favorites import FILE` does.
      let descriptor = open(file.path, O_RDONLY)
      #expect(descriptor >= 0)
      defer { close(descriptor) }
      let first = try fresh.importFile(descriptor: descriptor, source: "export.json")
      #expect(first.added == 1 && first.notesOnly == 1 && first.bookmarksAdded == 1)
      #expect(try fresh.isFavorite(book.id))
      #expect(try !fresh.isFavorite(84), "a book with notes and no star is not starred")
      #expect(
        try library.bookmarks(id: 84) == [
          Self.highlight("h1", book: 84, note: "the creature wakes")
        ])

      let again = try fresh.importFile(descriptor: descriptor, source: "export.json")
      #expect(again.bookmarksAdded + again.bookmarksUpdated == 0 && again.unchanged == 1)
      #expect(try library.bookmarks().count == 1, "nothing twice")
      #expect(try fresh.count() == 1)

      // The same data held whole (standard input) merges the same way.
      let whole = try fresh.importDocument(try Data(contentsOf: file), source: "stdin")
      #expect(whole.bookmarksAdded == 0 && whole.notesOnly == 1)
    }
  }

  @Test func aNewerNoteFromTheDocumentReplacesAnOlderOneHere() throws {
    try withScratchDirectory { directory in
      let (source, _, _) = try store(in: directory, name: "a.sqlite")
      let document = try source.exportDocument()
      let target = try FavoritesStore(databaseURL: directory.appendingPathComponent("b.sqlite"))
      let library = Library(favorites: target)
      try library.saveBookmark(Self.highlight("h1", book: 84, note: "older here", updated: 15))
      let summary = try target.importDocument(document, source: "a.json")
      #expect(summary.bookmarksUpdated == 1)
      #expect(try library.bookmarks(id: 84).map(\.note) == ["the creature wakes"])
    }
  }

  @Test func oldExportsWithoutNotesOrHighlightsStillImport() throws {
    try withScratchDirectory { directory in
      let book = try #require(try StoreFixtures.english().first)
      let json = String(decoding: book.rawJSON, as: UTF8.self)
      let version1 = """
        {"count":1,"exported_at":"2025-01-02T03:04:05Z","favorites":[{"added_at":\
        "2025-01-02T03:04:05Z","book":\(json)}],"format":"gutenberg-favorites","version":1}
        """
      let version2 = """
        {"count":1,"exported_at":"2025-01-02T03:04:05Z","favorites":[{"added_at":\
        "2025-01-02T03:04:05Z","book":\(json),"bookmarks":[{"byte_offset":7,"created_at":\
        "2025-01-02T03:04:05Z","key":"old","note":"n","quote":"q","updated_at":\
        "2025-01-02T03:04:05Z"}]}],"format":"gutenberg-favorites","version":2}
        """
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("a.sqlite"))
      let first = try store.importDocument(Data(version1.utf8), source: "v1.json")
      #expect(first.added == 1)
      let second = try store.importDocument(Data(version2.utf8), source: "v2.json")
      #expect(second.unchanged == 1 && second.bookmarksAdded == 1)
      let marks = try Library(favorites: store).bookmarks()
      #expect(marks.count == 1 && marks[0].endOffset == nil && marks[0].chapter == nil)
    }
  }

  @Test func aBadMarkOrEndIsOneErrorAndWritesNothing() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("a.sqlite"))
      let mark = """
        {"byte_offset":9,"created_at":"2025-01-02T03:04:05Z","key":"k","quote":"q",\
        "updated_at":"2025-01-02T03:04:05Z"
        """
      func document(_ entry: String) -> Data {
        Data(
          """
          {"count":1,"favorites":[\(entry)],"format":"gutenberg-favorites","version":3}
          """.utf8)
      }
      #expect(throws: StoreError.self) {
        try store.importDocument(
          document(#"{"book":{"id":84},"favourite":"no","bookmarks":[\#(mark)}]}"#),
          source: "x.json")
      }
      #expect(throws: StoreError.self) {
        try store.importDocument(
          document(#"{"book":{"id":84},"favourite":false,"bookmarks":[\#(mark),"end_offset":3}]}"#),
          source: "x.json")
      }
      #expect(try Library(favorites: store).bookmarks().isEmpty && store.count() == 0)
      let good = try store.importDocument(
        document(#"{"book":{"id":84},"favourite":false,"bookmarks":[\#(mark),"end_offset":30}]}"#),
        source: "x.json")
      #expect(good.notesOnly == 1 && good.bookmarksAdded == 1 && good.added == 0)
    }
  }
}
