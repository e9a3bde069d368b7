import Foundation
import GRDB
import Testing

@testable import Catalog

/// What `library update` asks with, row by row, and the migration that keeps both validators.
@Suite struct LibraryUpdateConditionTests {
  static func entry(
    path: String = "/nowhere", validator: String? = nil, etag: String? = nil,
    lastModified: String? = nil
  ) -> LibraryEntry {
    LibraryEntry(
      id: 84, format: "txt", title: "Frankenstein", path: path, size: 10,
      fetchedAt: StoreFixtures.date(), validator: validator, url: "https://x/84", etag: etag,
      lastModified: lastModified)
  }

  @Test func theStoredETagComesFirstThenTheDate() {
    #expect(
      LibraryUpdate.condition(for: Self.entry(etag: "W/\"a\"", lastModified: "d"))
        == .etag("W/\"a\""))
    #expect(LibraryUpdate.condition(for: Self.entry(lastModified: "d")) == .lastModified("d"))
  }

  @Test func aRowFromBeforeTheMigrationIsAskedByItsOneValidator() {
    #expect(LibraryUpdate.condition(for: Self.entry(validator: "\"v1\"")) == .etag("\"v1\""))
    let date = "Sat, 01 Mar 2025 12:00:00 GMT"
    #expect(LibraryUpdate.condition(for: Self.entry(validator: date)) == .lastModified(date))
  }

  @Test func aRowWithoutValidatorsIsAskedByItsFilesTime() throws {
    try withScratchDirectory { directory in
      let file = directory.appendingPathComponent("84.txt")
      try Data("text".utf8).write(to: file)
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: 1_740_830_400)], ofItemAtPath: file.path)
      #expect(
        LibraryUpdate.condition(for: Self.entry(path: file.path))
          == .fileTime("Sat, 01 Mar 2025 12:00:00 GMT"))
      #expect(LibraryUpdate.condition(for: Self.entry()) == .missingFile)
    }
  }

  @Test func bothValidatorsAreKeptAndOlderRowsReadWithoutThem() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("favorites.sqlite")
      do {
        let queue = try DatabaseQueue(path: url.path)
        try FavoritesSchema.schema.migrator().migrate(queue, upTo: "v6-highlights")
        try queue.write { db in
          try db.execute(
            sql: """
              INSERT INTO download (id, format, title, path, size, fetched_at, validator, url)
              VALUES (11, 'txt', 'Alice', '/a', 5, 1000, '"old"', 'https://x/11')
              """)
        }
        try queue.close()
      }
      let library = Library(favorites: try FavoritesStore(databaseURL: url))
      let old = try #require(try library.entries(id: 11).first)
      #expect(old.validator == "\"old\"" && old.etag == nil && old.lastModified == nil)
      try library.record(Self.entry(validator: "\"v2\"", etag: "\"v2\"", lastModified: "d"))
      let new = try #require(try library.entries(id: 84).first)
      #expect(new.etag == "\"v2\"" && new.lastModified == "d")
    }
  }
}
