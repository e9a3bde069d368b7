import Foundation
import GRDB
import Testing

@testable import Catalog

/// The library table: rows, missing files, removal, reading positions, and the migration that
/// adds it to an existing favourites file without touching the favourites.
@Suite struct LibraryTests {
  static func entry(_ id: Int, _ format: String, path: String, seconds: Double = 0) -> LibraryEntry
  {
    LibraryEntry(
      id: id, format: format, title: "Book \(id)", path: path, size: 10,
      fetchedAt: StoreFixtures.date(seconds), validator: "\"v1\"", url: "https://x/\(id)")
  }

  @Test func recordsListsAndReplacesByBookAndFormat() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let library = Library(favorites: store)
      try library.record(Self.entry(84, "epub", path: "/a", seconds: 1))
      try library.record(Self.entry(11, "txt", path: "/b", seconds: 2))
      try library.record(Self.entry(84, "epub", path: "/c", seconds: 3))
      #expect(try library.entries().map(\.path) == ["/c", "/b"])
      #expect(try library.entries(id: 84).map(\.fetchedAt) == [StoreFixtures.date(3)])
      #expect(try library.downloadedIDs(among: [84, 11, 5]) == [84, 11])
      #expect(try store.count() == 0, "favourites and library are independent")
    }
  }

  @Test func aDeletedFileIsMissing() throws {
    try withScratchDirectory { directory in
      let file = directory.appendingPathComponent("84.txt")
      try Data("x".utf8).write(to: file)
      let entry = Self.entry(84, "txt", path: file.path)
      #expect(entry.isPresent)
      try FileManager.default.removeItem(at: file)
      #expect(!entry.isPresent)
      #expect(!Self.entry(1, "txt", path: directory.path).isPresent, "a directory is no book")
    }
  }

  @Test func removeTakesEveryFormatAndThePosition() throws {
    try withScratchDirectory { directory in
      let store = try FavoritesStore(databaseURL: directory.appendingPathComponent("f.sqlite"))
      let library = Library(favorites: store)
      try library.record(Self.entry(84, "epub", path: "/a"))
      try library.record(Self.entry(84, "txt", path: "/b"))
      try library.setReadingPosition(id: 84, ReadingPosition(line: 120, byteOffset: 9_000))
      #expect(try library.readingPosition(id: 84) == ReadingPosition(line: 120, byteOffset: 9_000))
      #expect(try library.remove(id: 84).map(\.format) == ["epub", "txt"])
      #expect(try library.entries().isEmpty)
      #expect(try library.readingPosition(id: 84) == nil)
      #expect(try library.remove(id: 84).isEmpty)
    }
  }

  @Test func anExistingFavouritesFileGainsTheLibraryAndKeepsItsFavourites() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("favorites.sqlite")
      // A file as the previous release left it: migrated up to v1 only, with one favourite.
      do {
        let queue = try DatabaseQueue(path: url.path)
        try FavoritesSchema.schema.migrator().migrate(queue, upTo: "v1")
        try queue.write { db in
          try db.execute(
            sql: """
              INSERT INTO favorite (id, added_at, missing_on_server, title_key, author_key, raw_json)
              VALUES (84, 1000, 0, 'frankenstein', 'shelley', ?)
              """, arguments: [Data(#"{"id":84,"title":"Frankenstein"}"#.utf8)])
          let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type='table'")
          #expect(!tables.contains("download"))
        }
        try queue.close()
      }
      let store = try FavoritesStore(databaseURL: url)
      #expect(try store.favorites().map(\.book.title) == ["Frankenstein"])
      let library = Library(favorites: store)
      try library.record(Self.entry(84, "epub", path: "/a"))
      #expect(try library.entries().count == 1)
      #expect(try store.count() == 1)
    }
  }

  @Test func aPositionSavedAsALineSurvivesTheOffsetMigration() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("favorites.sqlite")
      // A file as the line-only reader left it: migrated up to v2, one position saved.
      do {
        let queue = try DatabaseQueue(path: url.path)
        try FavoritesSchema.schema.migrator().migrate(queue, upTo: "v2-library")
        try queue.write { db in
          try db.execute(
            sql: "INSERT INTO reading_position (id, line, updated_at) VALUES (84, 345, 1000)")
        }
        try queue.close()
      }
      let library = Library(favorites: try FavoritesStore(databaseURL: url))
      #expect(try library.readingPosition(id: 84) == ReadingPosition(line: 345))
      try library.setReadingPosition(id: 84, ReadingPosition(line: 346, byteOffset: 70_000))
      #expect(try library.readingPosition(id: 84) == ReadingPosition(line: 346, byteOffset: 70_000))
    }
  }
}
