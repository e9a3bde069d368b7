import Foundation
import Gutendex
import Testing

@testable import Catalog

/// `favorites import` of a file is streamed (``StreamedImportDocument``: the document read a
/// piece at a time, each entry again as it is written) and must import exactly what the
/// whole-document reader imports, and refuse exactly what it refuses with the same message:
/// both are run on the same documents, valid ones and every kind of bad one (each syntax error
/// left to the whole-document reader), into stores holding the same favourite and bookmark.
@Suite struct StreamedImportTests {
  /// A store holding one favourite (Frankenstein) with a bookmark, the same each time.
  static func seeded(_ directory: URL) throws -> FavoritesStore {
    let store = try FavoritesStore(
      databaseURL: directory.appendingPathComponent("\(UUID().uuidString).sqlite"))
    try store.add(try StoreFixtures.book(84, in: StoreFixtures.e4()), at: StoreFixtures.date())
    return store
  }

  /// What importing `document` did: the summary or the error, then every favourite as the
  /// export document has it.
  static func outcome(_ document: Data, streamed: Bool, in directory: URL) throws -> String {
    let store = try seeded(directory)
    defer { store.close() }
    let date = StoreFixtures.date(7_200)
    var said: String
    do throws(StoreError) {
      if streamed {
        let file = directory.appendingPathComponent("\(UUID().uuidString).json")
        try? document.write(to: file)
        let descriptor = open(file.path, O_RDONLY)
        defer { close(descriptor) }
        said = "\(try store.importFile(descriptor: descriptor, source: "doc", at: date))"
      } else {
        said = "\(try store.importDocument(document, source: "doc", at: date))"
      }
    } catch {
      said = "error: \(error)"
    }
    let export = try store.exportDocument(exportedAt: date)
    return said + "\n" + String(decoding: export, as: UTF8.self)
  }

  /// An export document of version 2: `count` books of the E4 page, each with a reading
  /// position and two bookmarks.
  static func versionTwo(count: Int = 12) throws -> String {
    let books = try StoreFixtures.e4().prefix(count)
    let entries = books.enumerated().map { index, book in
      let date = "2025-06-0\(1 + index % 9)T0\(index % 10):00:00Z"
      let marks = (0..<2).map { mark in
        #"{"byte_offset":\#(mark * 1000),"created_at":"\#(date)","key":"k-\#(book.id)-\#(mark)","#
          + #""note":"n\#(mark)","quote":"q é\"\\","updated_at":"\#(date)"}"#
      }
      return #"{"added_at":"\#(date)","book":\#(String(decoding: book.rawJSON, as: UTF8.self)),"#
        + #""bookmarks":[\#(marks.joined(separator: ","))],"reading_position":{"byte_offset":5,"#
        + #""line":2,"quote":"w","updated_at":"\#(date)"}}"#
    }
    return #"{"format":"gutenberg-favorites","version":2,"count":\#(entries.count),"#
      + #""favorites":[\#(entries.joined(separator: ",\n "))]}"#
  }

  /// Documents the streamed reader takes whole (it must import them as the whole reader does).
  static func layouts() throws -> [String] {
    let two = try versionTwo()
    let books = try StoreFixtures.e4().prefix(5).map { String(decoding: $0.rawJSON, as: UTF8.self) }
    let page = String(decoding: try StoreFixtures.data("e4-2025-page1"), as: UTF8.self)
    return [
      two, "\u{FEFF}" + two, "\n\t " + two + " \r\n",
      String(decoding: try seededExport(), as: UTF8.self),
      #"{"favorites":[],"version":1,"format":"gutenberg-favorites"}"#,
      "[" + books.joined(separator: " , ") + "]", "[]", page,
      #"{"results":[\#(books.joined(separator: ","))],"count":5,"next":null}"#,
    ]
  }

  /// An export of version 1 with a book that is a favourite already (unchanged) and others.
  static func seededExport() throws -> Data {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("e.sqlite"))
      defer { store.close() }
      for (index, book) in try StoreFixtures.english().prefix(6).enumerated() {
        try store.add(book, at: StoreFixtures.date(Double(index)))
      }
      try store.add(try StoreFixtures.book(84, in: StoreFixtures.e4()), at: StoreFixtures.date())
      return try store.exportDocument(exportedAt: StoreFixtures.date(60))
    }
  }

  /// Bad documents of every kind.
  static func refusals() throws -> [String] {
    let two = try versionTwo(count: 3)
    let book = String(decoding: try StoreFixtures.e4()[0].rawJSON, as: UTF8.self)
    let nested = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
    var documents = [
      "", "  ", "null", "42", #""text""#, "{}", #"{"favorites":[]}"#, two + "x", two + ",",
      two.replacingOccurrences(of: "\"version\":2", with: "\"version\":4"),
      two.replacingOccurrences(of: "\"version\":2,", with: ""),
      two.replacingOccurrences(of: "\"version\":2", with: "\"version\":\"2\""),
      two.replacingOccurrences(of: "gutenberg-favorites", with: "other"),
      two.replacingOccurrences(of: "\"count\":3", with: "\"count\":4"),
      two.replacingOccurrences(of: "\"added_at\":\"2025-06-02", with: "\"added_at\":\"soon"),
      two.replacingOccurrences(of: "\"note\":\"n1\"", with: "\"note\":\"a\\u0000b\""),
      two.replacingOccurrences(of: "\"note\":\"n1\"", with: "\"note\":\"a\\qb\""),
      two.replacingOccurrences(of: "\"book\":", with: "\"bock\":"),
      #"{"format":"gutenberg-favorites","version":1,"favorites":{}}"#,
      #"{"format":"gutenberg-favorites","version":1,"favorites":[1]}"#,
      #"{"format":"gutenberg-favorites","version":1,"favorites":[{"added_at":"2025-01-01T00:00:00Z","book":\#(nested)}]}"#,
      #"{"results":[\#(book),{"id":0}]}"#, #"{"results":"none"}"#, "[" + book + ",]",
      "[" + book + "", "[" + book.replacingOccurrences(of: "\"id\":", with: "\"id\" ") + "]",
      #"{"format":"x","format":"gutenberg-favorites","version":1,"favorites":[]}"#,
    ]
    // The version 2 document cut short at many places: every one a syntax error.
    let bytes = Array(two.utf8)
    for cut in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 40)) {
      documents.append(String(decoding: bytes[..<cut], as: UTF8.self))
    }
    return documents
  }

  @Test func aStreamedImportImportsWhatTheWholeDocumentImports() throws {
    try withScratchDirectory { directory in
      for document in try Self.layouts() {
        let data = Data(document.utf8)
        let file = directory.appendingPathComponent("layout.json")
        try data.write(to: file)
        let descriptor = open(file.path, O_RDONLY)
        // Streamed indeed: the first pass takes it.
        #expect(StreamedImportDocument(descriptor: descriptor) != nil, "\(document.prefix(80))")
        close(descriptor)
        let streamed = try Self.outcome(data, streamed: true, in: directory)
        #expect(!streamed.hasPrefix("error"), "\(streamed.prefix(300))")
        #expect(
          streamed == (try Self.outcome(data, streamed: false, in: directory)),
          "\(document.prefix(80))")
      }
    }
  }

  @Test func aStreamedImportRefusesWhatTheWholeDocumentRefusesAndWritesNothing() throws {
    try withScratchDirectory { directory in
      let untouched = try Self.outcome(Data("[]".utf8), streamed: false, in: directory)
        .split(separator: "\n", maxSplits: 1).last.map(String.init)
      for document in try Self.refusals() {
        let data = Data(document.utf8)
        let streamed = try Self.outcome(data, streamed: true, in: directory)
        let whole = try Self.outcome(data, streamed: false, in: directory)
        #expect(streamed == whole, "\(document.prefix(120).debugDescription)")
        #expect(streamed.hasPrefix("error: "), "\(streamed.prefix(200))")
        // All or nothing: the store is as it was.
        let store = streamed.split(separator: "\n", maxSplits: 1).last.map(String.init)
        #expect(store == untouched, "\(document.prefix(120).debugDescription)")
      }
    }
  }
}
