import Foundation
import GRDB
import Gutendex
import Testing

@testable import Catalog

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening refuses bad files with a clear error and never modifies them.
@Suite struct StoreOpeningTests {
  /// Opens both kinds of store at `url`, expecting `expected` from each.
  func expectBothFail(at url: URL, with expected: StoreError) {
    #expect(
      storeError { () throws(StoreError) in try FavoritesStore(databaseURL: url) } == expected)
    #expect(storeError { () throws(StoreError) in try PageCache(databaseURL: url) } == expected)
  }

  @Test(arguments: [
    Data("this is not a database, just some text\n".utf8),
    Data(repeating: 0xAB, count: 8192),
    Data("SQLite format 3\0".utf8) + Data(repeating: 0xFF, count: 4080),
    Data("{\"favorites\": []}".utf8),
  ])
  func corruptFileIsRefusedAndLeftByteIdentical(contents: Data) throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("favorites.sqlite")
      try contents.write(to: url)
      expectBothFail(at: url, with: .corrupt(path: url.path))
      #expect(try Data(contentsOf: url) == contents)
      // Nothing was created beside it either (no -wal, -shm, temporary file).
      #expect(try directoryListing(directory) == ["favorites.sqlite"])
      let error = StoreError.corrupt(path: url.path)
      #expect(error.description.contains(url.path))
      #expect(error.description.contains("left untouched"))
    }
  }

  @Test func anotherProgramsSQLiteDatabaseIsRefusedAndLeftByteIdentical() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("other.sqlite")
      do {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
          try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
          try db.execute(sql: "INSERT INTO notes (text) VALUES ('keep me')")
        }
        try queue.close()
      }
      let before = try Data(contentsOf: url)
      expectBothFail(at: url, with: .corrupt(path: url.path))
      #expect(try Data(contentsOf: url) == before)
    }
  }

  @Test func favoritesAndCacheFilesAreNotMistakenForEachOther() throws {
    try withScratchDirectory { directory in
      let favorites = directory.appendingPathComponent("favorites.sqlite")
      let pages = directory.appendingPathComponent("pages.sqlite")
      do {
        let store = try FavoritesStore(databaseURL: favorites)
        try store.add(Book(id: 1, title: "One"))
        _ = try PageCache(databaseURL: pages)
      }
      let before = try Data(contentsOf: favorites)
      #expect(
        storeError { () throws(StoreError) in try PageCache(databaseURL: favorites) }
          == .corrupt(path: favorites.path))
      #expect(
        storeError { () throws(StoreError) in try FavoritesStore(databaseURL: pages) }
          == .corrupt(path: pages.path))
      #expect(try Data(contentsOf: favorites) == before)
      // And each still opens as what it is.
      #expect(try FavoritesStore(databaseURL: favorites).count() == 1)
    }
  }

  @Test func emptyFileIsInitialised() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("favorites.sqlite")
      #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
      let store = try FavoritesStore(databaseURL: url)
      try store.add(Book(id: 3, title: "Three"))
      #expect(try FavoritesStore(databaseURL: url).isFavorite(3))
    }
  }

  /// While the first store keeps its connection open, its tables may exist only in the WAL, so
  /// the file's header still looks empty; the kind check must not rely on the header alone.
  @Test func kindIsCheckedEvenBeforeTheWALIsCheckpointed() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("favorites.sqlite")
      #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
      let store = try FavoritesStore(databaseURL: url)
      try store.add(Book(id: 8, title: "Eight"))
      #expect(
        storeError { () throws(StoreError) in try PageCache(databaseURL: url) }
          == .corrupt(path: url.path))
      #expect(try store.isFavorite(8))
    }
  }

  @Test func directoryAtTheFilePathIsNotAFile() throws {
    try withScratchDirectory { directory in
      let url = directory.appendingPathComponent("favorites.sqlite")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
      expectBothFail(at: url, with: .notAFile(path: url.path))
      #expect(try directoryListing(url).isEmpty)
      #expect(StoreError.notAFile(path: url.path).description.contains(url.path))
    }
  }

  /// Root ignores permission bits, so as root a read-only directory cannot be made with chmod;
  /// then a path under a regular file stands in: it can no more be written than a read-only
  /// directory, and must give the same error.
  @Test func unwritableDirectoryIsNotWritable() throws {
    try withScratchDirectory { directory in
      let blocked: URL
      let dataDirectory: URL
      if geteuid() == 0 {
        blocked = directory.appendingPathComponent("a-regular-file")
        try Data("x".utf8).write(to: blocked)
        dataDirectory = blocked.appendingPathComponent("data")
      } else {
        blocked = directory.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(
          at: blocked, withIntermediateDirectories: false,
          attributes: [.posixPermissions: 0o500])
        dataDirectory = blocked.appendingPathComponent("data")
      }
      defer { chmod(blocked.path, 0o700) }
      let location = StoreLocation(
        dataDirectory: dataDirectory, cacheDirectory: dataDirectory.appendingPathComponent("c"))
      let error = storeError { () throws(StoreError) in try FavoritesStore(location: location) }
      // The error names what is in the way: the read-only directory, or the file.
      #expect(error == .notWritable(path: blocked.path))
      #expect(error?.description.contains(blocked.path) == true)
      #expect(
        storeError { () throws(StoreError) in try PageCache(location: location) }
          == .notWritable(path: blocked.path))
      #expect(
        storeError { () throws(StoreError) in
          try FavoritesStore(databaseURL: dataDirectory.appendingPathComponent("f.sqlite"))
        } == .notWritable(path: blocked.path))
      #expect(!FileManager.default.fileExists(atPath: dataDirectory.path))
    }
  }

  @Test func everyErrorNamesItsPath() {
    let path = "/some/where/favorites.sqlite"
    let errors: [StoreError] = [
      .corrupt(path: path), .notAFile(path: path), .notWritable(path: path),
      .io(path: path, reason: "SQLite error 10: disk I/O error"),
      .invalidImport(source: path, location: "favorites[3].book.id", reason: "expected Int"),
      .exportFailed(path: path, reason: "No space left on device"),
    ]
    for error in errors {
      #expect(error.description.contains(path))
      #expect(error.path == path)
      #expect(!error.description.contains("\n"))
      #expect(error.localizedDescription == error.description)
    }
    let invalid = StoreError.invalidImport(
      source: path, location: "favorites[3].book.id", reason: "expected Int")
    #expect(invalid.description.contains("favorites[3].book.id"))
  }

  @Test func standardLocationFollowsTheEnvironment() {
    let home = ["HOME": "/home/reader"]
    let plain = StoreLocation.standard(environment: home)
    #expect(plain.dataDirectory.path == "/home/reader/.local/share/gutenberg")
    #expect(plain.cacheDirectory.path == "/home/reader/.cache/gutenberg")
    #expect(plain.favoritesDatabase.path == "/home/reader/.local/share/gutenberg/favorites.sqlite")
    #expect(plain.cacheDatabase.path == "/home/reader/.cache/gutenberg/pages.sqlite")

    let xdg = StoreLocation.standard(
      environment: home.merging(["XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache"]) {
        $1
      })
    #expect(xdg.dataDirectory.path == "/x/data/gutenberg")
    #expect(xdg.cacheDirectory.path == "/x/cache/gutenberg")

    // Relative or empty XDG values are ignored, as the XDG specification asks.
    let relative = StoreLocation.standard(
      environment: home.merging(["XDG_DATA_HOME": "relative", "XDG_CACHE_HOME": ""]) { $1 })
    #expect(relative == plain)

    // GUTENBERG_DATA_DIR alone keeps everything under it, whatever XDG says.
    let dataOnly = StoreLocation.standard(
      environment: home.merging(["GUTENBERG_DATA_DIR": "/tmp/g", "XDG_CACHE_HOME": "/x/c"]) {
        $1
      })
    #expect(dataOnly.dataDirectory.path == "/tmp/g")
    #expect(dataOnly.cacheDirectory.path == "/tmp/g/cache")

    let both = StoreLocation.standard(
      environment: home.merging(["GUTENBERG_DATA_DIR": "/tmp/g", "GUTENBERG_CACHE_DIR": "/var/c"]) {
        $1
      })
    #expect(both.dataDirectory.path == "/tmp/g")
    #expect(both.cacheDirectory.path == "/var/c")

    let tilde = StoreLocation.standard(
      environment: home.merging(["GUTENBERG_CACHE_DIR": "~/cache"]) { $1 })
    #expect(tilde.cacheDirectory.path == "/home/reader/cache")
  }
}
