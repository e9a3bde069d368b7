import Foundation
import Gutendex
import Testing

@testable import Catalog

@Suite struct FavoritesTransferTests {
  /// A store holding Japanese, English and E4 books added at distinct times.
  func filledStore(in directory: URL, name: String = "f.sqlite") throws -> FavoritesStore {
    let store = try FavoritesStore(databaseURL: directory.appendingPathComponent(name))
    let books =
      try Array(StoreFixtures.japanese().prefix(4)) + Array(StoreFixtures.english().prefix(4))
      + Array(StoreFixtures.e4().prefix(4))
    for (index, book) in books.enumerated() {
      // Two books share each second, so ordering by id breaks the ties.
      try store.add(book, at: StoreFixtures.date(Double(index / 2) + (index == 5 ? 0.5 : 0)))
    }
    return store
  }

  @Test func exportIsDeterministicSortedPrettyAndUnescaped() throws {
    try withScratchDirectory { directory in
      let store = try filledStore(in: directory)
      let date = StoreFixtures.date(3_600)
      let first = try store.exportDocument(exportedAt: date)
      #expect(try store.exportDocument(exportedAt: date) == first)

      let text = try #require(String(data: first, encoding: .utf8))
      #expect(text.hasPrefix("{\n  \"count\": 12,\n  \"exported_at\": \"2025-06-01T01:00:00Z\",\n"))
      #expect(text.hasSuffix("\n  \"format\": \"gutenberg-favorites\",\n  \"version\": 1\n}\n"))
      #expect(!text.contains("\\u"))
      #expect(!text.contains("\\/"))
      #expect(text.contains("雲形紋章"))
      #expect(text.contains("https://www.gutenberg.org/"))

      let object = try #require(try JSONSerialization.jsonObject(with: first) as? [String: Any])
      let favorites = try #require(object["favorites"] as? [[String: Any]])
      #expect(favorites.count == 12)
      // Oldest first; equal added_at ordered by id. Dates all have milliseconds, so they sort
      // as text.
      let listed = favorites.map { entry in
        (
          (entry["added_at"] as? String) ?? "",
          ((entry["book"] as? [String: Any])?["id"] as? Int) ?? 0
        )
      }
      let expected = listed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
      #expect(listed.map(\.1) == expected.map(\.1))
      #expect(listed[0].0 == "2025-06-01T00:00:00.000Z")
      #expect(listed.contains { $0.0 == "2025-06-01T00:00:02.500Z" })

      // Each book is the server's object, every field kept.
      for entry in favorites {
        let book = try #require(entry["book"] as? [String: Any])
        let id = try #require(book["id"] as? Int)
        let raw = try #require(try store.favorite(id: id)).book.rawJSON
        let server = try #require(try JSONSerialization.jsonObject(with: raw) as? NSDictionary)
        #expect(NSDictionary(dictionary: book) == server)
      }
    }
  }

  @Test func unknownServerFieldsSurviveExportAndImport() throws {
    try withScratchDirectory { directory in
      let raw = Data(
        #"{"id":5,"title":"Future","authors":[],"zeta_field":{"b":[1.50,2e3,null],"a":"ü/"},"alpha":true}"#
          .utf8)
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      try store.add(Book.decode(from: raw), at: StoreFixtures.date(0))
      let document = try store.exportDocument(exportedAt: StoreFixtures.date(0))
      let text = try #require(String(data: document, encoding: .utf8))
      // Numbers keep their text, nested keys are sorted, and "alpha" sorts before "authors".
      #expect(text.contains(#""b": ["#))
      #expect(text.contains("1.50,"))
      #expect(text.contains("2e3,"))
      #expect(text.contains(#""a": "ü/""#))
      let alpha = try #require(text.range(of: "\"alpha\""))
      let authors = try #require(text.range(of: "\"authors\""))
      #expect(alpha.lowerBound < authors.lowerBound)

      let copy = try FavoritesStore(databaseURL: directory.appendingPathComponent("g.sqlite"))
      #expect(try copy.importDocument(document) == ImportSummary(added: 1))
      let imported = try #require(try copy.favorite(id: 5)).book.rawJSON
      let reparsed = try #require(
        try JSONSerialization.jsonObject(with: imported) as? [String: Any])
      #expect((reparsed["zeta_field"] as? [String: Any])?["a"] as? String == "ü/")
      #expect(try copy.exportDocument(exportedAt: StoreFixtures.date(0)) == document)
    }
  }

  @Test func roundTripIsByteIdenticalApartFromExportedAt() throws {
    try withScratchDirectory { directory in
      let store = try filledStore(in: directory)
      let document = try store.exportDocument(exportedAt: StoreFixtures.date(0))
      let copy = try FavoritesStore(databaseURL: directory.appendingPathComponent("copy.sqlite"))
      #expect(
        try copy.importDocument(document, at: StoreFixtures.date(999)) == ImportSummary(added: 12))
      let again = try copy.exportDocument(exportedAt: StoreFixtures.date(86_400))
      func withoutExportedAt(_ data: Data) -> [Substring] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").filter {
          !$0.contains("\"exported_at\"")
        }
      }
      #expect(again != document)
      #expect(withoutExportedAt(again) == withoutExportedAt(document))
      #expect(try copy.exportDocument(exportedAt: StoreFixtures.date(0)) == document)
      for favorite in try store.favorites() {
        #expect(try copy.favorite(id: favorite.id)?.addedAt == favorite.addedAt)
      }
    }
  }

  @Test func importsAGutendexPageAndAnArrayOfBooks() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let pageData = try StoreFixtures.data("en__page_87")
      let page = try BookPage.decode(from: pageData)
      let summary = try store.importDocument(
        pageData, source: "en__page_87.json", at: StoreFixtures.date(7))
      #expect(summary == ImportSummary(added: page.results.count))
      #expect(try store.count() == page.results.count)
      // The mirror's compact bytes are stored exactly as the server sent them.
      for book in page.results {
        let stored = try #require(try store.favorite(id: book.id))
        #expect(stored.book == book)
        #expect(stored.addedAt == StoreFixtures.date(7))
      }

      let japanese = try StoreFixtures.japanese()
      let array =
        Data("[".utf8) + japanese.map(\.rawJSON).joined(separator: Data(",".utf8))
        + Data("]".utf8)
      #expect(try store.importDocument(array) == ImportSummary(added: japanese.count))
      #expect(try store.favoriteIDs(among: japanese.map(\.id)) == Set(japanese.map(\.id)))

      // The pretty-printed E4 recording imports too, as the same books.
      let e4 = try StoreFixtures.e4()
      #expect(try store.importDocument(StoreFixtures.data("e4-2025-page1")).added == e4.count)
      let frankenstein = try #require(try store.favorite(id: 84)).book
      #expect(frankenstein.title == e4[0].title && frankenstein.summaries == e4[0].summaries)
    }
  }

  @Test func importIsIdempotent() throws {
    try withScratchDirectory { directory in
      let source = try filledStore(in: directory)
      let document = try source.exportDocument(exportedAt: StoreFixtures.date(0))
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("g.sqlite"))
      #expect(try store.importDocument(document) == ImportSummary(added: 12))
      let before = try store.exportDocument(exportedAt: StoreFixtures.date(0))
      #expect(try store.importDocument(document) == ImportSummary(unchanged: 12))
      #expect(try store.exportDocument(exportedAt: StoreFixtures.date(0)) == before)

      // The same books as a page: identical content, so unchanged as well.
      let page = try StoreFixtures.data("ja__page_1")
      let japanese = try StoreFixtures.japanese()
      let first = try store.importDocument(page)
      #expect(first.unchanged == 4 && first.added == japanese.count - 4 && first.updated == 0)
      #expect(try store.importDocument(page) == ImportSummary(unchanged: japanese.count))
    }
  }

  @Test func importUpdatesChangedSnapshotsButKeepsAddedAt() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let e4 = try StoreFixtures.e4()
      try store.add(e4[0], at: StoreFixtures.date(0))
      let changed = try StoreFixtures.retitled(e4[0], "Frankenstein, annotated")
      let array = Data("[".utf8) + changed.rawJSON + Data(",".utf8) + e4[1].rawJSON + Data("]".utf8)
      #expect(
        try store.importDocument(array, at: StoreFixtures.date(50))
          == ImportSummary(added: 1, updated: 1))
      let stored = try #require(try store.favorite(id: e4[0].id))
      #expect(stored.book.title == "Frankenstein, annotated")
      #expect(stored.addedAt == StoreFixtures.date(0))
      #expect(try store.favorite(id: e4[1].id)?.addedAt == StoreFixtures.date(50))
    }
  }

  /// Each bad input: the error names the source and the location, and nothing is written.
  @Test(arguments: [
    ("truncated", "line 1, column"),
    ("wrongVersion", "version"),
    ("notJSON", "line 1, column 1"),
    ("badBookID", "favorites[1].book.id"),
    ("badPageBook", "results[2].title"),
    ("badArrayElement", "[1]"),
    ("missingAddedAt", "favorites[0].added_at"),
    ("wrongFormat", "format"),
    ("wrongCount", "count"),
    ("topLevelNumber", "top level"),
    ("empty", "line 1, column 1"),
    ("syntaxOnLineTwo", "line 2, column 13"),
    ("negativeID", "[0].id"),
    ("bookmarkWithoutKey", "favorites[0].bookmarks[0].key"),
    ("badPositionLine", "favorites[0].reading_position.line"),
  ])
  func invalidImportsChangeNothingAndSayWhere(name: String, location: String) throws {
    try withScratchDirectory { directory in
      let store = try filledStore(in: directory)
      let document = try store.exportDocument(exportedAt: StoreFixtures.date(0))
      let text = String(decoding: document, as: UTF8.self)
      let book = String(decoding: try StoreFixtures.e4()[0].rawJSON, as: UTF8.self)
      let fresh = #"{"id":424242,"title":"New"}"#
      let input: String =
        switch name {
        case "truncated":
          // Compact so the cut lands on line 1; a new book first proves nothing is written.
          "[" + fresh + "," + String(book.replacingOccurrences(of: "\n", with: " ").prefix(200))
        // Version 2 (favourites with reading data) is read too; 3 is not.
        case "wrongVersion": text.replacingOccurrences(of: "\"version\": 1", with: "\"version\": 4")
        case "notJSON": "Frankenstein, Moby Dick"
        case "badBookID":
          #"{"format":"gutenberg-favorites","version":1,"favorites":["#
            + #"{"added_at":"2025-01-01T00:00:00Z","book":\#(fresh)},"#
            + #"{"added_at":"2025-01-01T00:00:00Z","book":{"id":"84","title":"x"}}]}"#
        case "badPageBook":
          #"{"count":3,"results":[\#(fresh),\#(book),{"id":9,"title":["not","a","string"]}]}"#
        case "badArrayElement": "[\(fresh), 42]"
        case "missingAddedAt":
          #"{"format":"gutenberg-favorites","version":1,"favorites":[{"book":\#(fresh)}]}"#
        case "wrongFormat": #"{"format":"other","version":1,"favorites":[]}"#
        case "wrongCount": text.replacingOccurrences(of: "\"count\": 12", with: "\"count\": 13")
        case "topLevelNumber": "42"
        case "empty": ""
        case "syntaxOnLineTwo": "[\n  {\"id\": tru\n}]"
        case "negativeID": #"[{"id":-3,"title":"Minus"}]"#
        case "bookmarkWithoutKey":
          #"{"format":"gutenberg-favorites","version":2,"favorites":[{"#
            + #""added_at":"2025-01-01T00:00:00Z","book":\#(fresh),"bookmarks":[{"#
            + #""byte_offset":3,"created_at":"2025-01-01T00:00:00Z","note":"","quote":"x","#
            + #""updated_at":"2025-01-01T00:00:00Z"}]}]}"#
        case "badPositionLine":
          #"{"format":"gutenberg-favorites","version":2,"favorites":[{"#
            + #""added_at":"2025-01-01T00:00:00Z","book":\#(fresh),"reading_position":{"#
            + #""line":-1,"updated_at":"2025-01-01T00:00:00Z"}}]}"#
        default: ""
        }
      let error = storeError { () throws(StoreError) in
        try store.importDocument(Data(input.utf8), source: "/tmp/in.json")
      }
      guard case .invalidImport(let source, let actual, let reason)? = error else {
        Issue.record("expected invalidImport, got \(String(describing: error))")
        return
      }
      #expect(source == "/tmp/in.json")
      #expect(actual.hasPrefix(location), "\(actual): \(reason)")
      #expect(!reason.isEmpty)
      #expect(error?.description.contains(location) == true)
      #expect(try store.isFavorite(424_242) == false)
      #expect(try store.count() == 12)
      #expect(try store.exportDocument(exportedAt: StoreFixtures.date(0)) == document)
    }
  }

  @Test func exportToFileWritesTheDocumentAndReplacesAtomically() throws {
    try withScratchDirectory { directory in
      let store = try filledStore(in: directory)
      let file = directory.appendingPathComponent("favorites.json")
      try Data("old contents".utf8).write(to: file)
      try store.export(to: file, exportedAt: StoreFixtures.date(0))
      #expect(try Data(contentsOf: file) == store.exportDocument(exportedAt: StoreFixtures.date(0)))
      #expect(
        try directoryListing(directory).filter { $0.contains("favorites.json") } == [
          "favorites.json"
        ])
    }
  }

  @Test func failedExportLeavesNothingBehind() throws {
    try withScratchDirectory { directory in
      let store = try filledStore(in: directory)
      let before = try directoryListing(directory)

      // A directory where the file should go: rename fails after the temporary was written.
      let occupied = directory.appendingPathComponent("taken.json")
      try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: false)
      let beforeOccupied = try directoryListing(directory)
      let error = storeError { () throws(StoreError) in try store.export(to: occupied) }
      guard case .exportFailed(let path, let reason)? = error else {
        Issue.record("expected exportFailed, got \(String(describing: error))")
        return
      }
      #expect(path == occupied.path)
      #expect(!reason.isEmpty)
      #expect(try directoryListing(directory) == beforeOccupied)
      #expect(try directoryListing(occupied).isEmpty)

      // A missing directory, and a path under a regular file: nothing can be created.
      let missing = directory.appendingPathComponent("no/such/dir/out.json")
      let underFile = directory.appendingPathComponent("f.sqlite/out.json")
      for target in [missing, underFile] {
        let failure = storeError { () throws(StoreError) in try store.export(to: target) }
        guard case .exportFailed(let path, _)? = failure else {
          Issue.record("expected exportFailed, got \(String(describing: failure))")
          continue
        }
        #expect(path == target.path)
        #expect(failure?.description.contains(target.path) == true)
        #expect(!FileManager.default.fileExists(atPath: target.path))
      }
      try FileManager.default.removeItem(at: occupied)
      #expect(try directoryListing(directory) == before)
    }
  }

  /// Export renames a temporary file over its target, which would replace a device (as root,
  /// even /dev/null): anything but a regular file is refused and left as it is.
  @Test func exportRefusesATargetThatIsNotARegularFile() throws {
    try withScratchDirectory { directory in
      let store = try filledStore(in: directory)
      let device = URL(fileURLWithPath: "/dev/null")
      var before = stat()
      #expect(lstat(device.path, &before) == 0)
      let error = storeError { () throws(StoreError) in try store.export(to: device) }
      #expect(
        error == .exportFailed(path: "/dev/null", reason: "not a regular file; nothing was written")
      )
      var after = stat()
      #expect(lstat(device.path, &after) == 0)
      #expect(after.st_mode & S_IFMT == S_IFCHR)
      #expect(after.st_ino == before.st_ino)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: "/dev").allSatisfy {
          !$0.hasSuffix(".tmp")
        })
    }
  }
}
