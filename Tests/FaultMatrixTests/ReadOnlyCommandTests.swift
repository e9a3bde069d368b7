import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// Commands that only read (`list`, `show`, `status`, `favorites list`, `bookmarks`, `library`)
/// open the favourites file read-only: they change nothing in the data directory, and a write
/// transaction held by another process does not hold them up.
@Suite(.serialized, .ownThread)
struct ReadOnlyCommandTests {
  static let reads = [
    ["list", "--source", "embedded"], ["show", "84", "--source", "embedded"],
    ["status", "--source", "embedded"], ["favorites", "list"],
  ]

  /// Modification time to the nanosecond, and size.
  static func stamp(_ path: String) -> (seconds: Int, nanoseconds: Int, size: Int) {
    var info = stat()
    guard stat(path, &info) == 0 else { return (-1, -1, -1) }
    return (info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int(info.st_size))
  }

  @Test func readsLeaveTheFavouritesFileAsItWas() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let add = try await app.run(["favorites", "add", "84", "--source", "embedded"])
    try #require(add.status == 0, "\(add)")
    let file = app.dataDirectory.appendingPathComponent("favorites.sqlite").path
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let stamp = Self.stamp(file)

    for arguments in Self.reads {
      let run = try await app.run(arguments)
      #expect(run.status == 0, "\(run)")
      #expect(run.err.isEmpty, "\(run)")
    }

    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == bytes, "the file was written")
    #expect(Self.stamp(file) == stamp, "the file's modification time changed")
    let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(!names.contains("favorites.sqlite-wal"), "a WAL was created: \(names)")
  }

  /// Every file of `directory` (recursively): its bytes and modification time.
  static func snapshot(_ directory: URL) -> [String: String] {
    var files: [String: String] = [:]
    let enumerator = FileManager.default.enumerator(atPath: directory.path)
    while let name = enumerator?.nextObject() as? String {
      let path = directory.appendingPathComponent(name).path
      let stamp = Self.stamp(path)
      let bytes = FileManager.default.contents(atPath: path)?.base64EncodedString() ?? "(dir)"
      files[name] = "\(stamp) \(bytes)"
    }
    return files
  }

  /// `bookmarks`, `library` and `library search` (issue 35) opened the store for writing: an
  /// empty write transaction each run, and 30 s then a failure under another process's write
  /// lock. Like the other reads they now leave the data directory byte for byte as it was, and
  /// answer at once while another process holds the write lock.
  @Test func listingsOfTheLibraryAndBookmarksWriteNothingAndNeverWait() async throws {
    try await Holdings.with { holdings in
      let app = holdings.app
      let commands = [
        ["bookmarks"], ["bookmarks", "84", "--json"], ["library"], ["library", "--json"],
        ["library", "search", "the"],
      ]
      let before = Self.snapshot(app.dataDirectory)
      for arguments in commands {
        let run = try await app.run(arguments)
        #expect(run.status == 0 && run.err.isEmpty, "\(arguments): \(run)")
      }
      #expect(Self.snapshot(app.dataDirectory) == before, "a listing wrote to the data directory")

      let lock = try DatabaseLock(
        path: app.dataDirectory.appendingPathComponent("favorites.sqlite").path)
      for arguments in commands {
        let (run, took) = try await StarvedDeadline.counted { try await app.run(arguments) }
        #expect(run.status == 0 && run.err.isEmpty, "\(arguments): \(run)")
        #expect(took < .seconds(10), "\(arguments) waited \(took) for the lock")
      }
      lock.unlock()
      #expect(Self.snapshot(app.dataDirectory) == before, "a listing wrote under the lock")
      try await holdings.expectIntact("listings")
    }
  }

  /// The names of the files of `directory` whose bytes or modification time differ between
  /// two snapshots, or that one of them lacks.
  static func changes(_ before: [String: String], _ after: [String: String]) -> [String] {
    Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
  }

  /// Issue 36: each read leaves every file of the data directory byte for byte as it was, its
  /// modification time too (no checkpoint, no vacuum, no schema touch, no WAL made or changed,
  /// no file made and removed), whatever it reads: the local catalogue, the cache offline, a
  /// server that cannot be reached, or one that answers. What a server sends a listing or a
  /// book's details is kept as the browser keeps it (the page in the page cache, the books in
  /// the local catalogue's pending list), and nothing else changes.
  @Test func everyReadLeavesEveryFileOfTheDataDirectoryAsItWas() async throws {
    try await Holdings.with { holdings in
      let app = holdings.app
      let live = ["--server", holdings.url.absoluteString]
      let down = ["--server", "http://127.0.0.1:9"]
      // Pages in the cache, for the reads that fall back on it.
      let fill = try await app.run(["list"] + live)
      try #require(fill.status == 0, "\(fill)")
      let reads: [[String]] = [
        ["library"], ["library", "--json"], ["library", "list"],
        ["library", "search", "Frankenstein"],
        ["list", "--source", "local"], ["list", "--search", "frankenstein", "--source", "local"],
        ["list", "--offline"] + live, ["list"] + down, ["list", "--json"] + down,
        ["show", "84", "--source", "local"], ["show", "84", "--offline"], ["show", "84"] + down,
        ["status"] + live, ["status", "--json"] + down, ["status", "--source", "local"],
        ["favorites"], ["favorites", "list"] + live, ["favorites", "list", "--json"] + down,
        ["favorites", "list", "--order", "title"], ["bookmarks"], ["bookmarks", "84", "--json"],
        ["bookmarks", "84"] + live,
      ]
      for arguments in reads {
        let before = Self.snapshot(app.dataDirectory)
        let run = try await app.run(arguments)
        #expect(run.status == 0, "\(arguments): \(run)")
        let changed = Self.changes(before, Self.snapshot(app.dataDirectory))
        #expect(changed.isEmpty, "\(arguments) changed \(changed)")
      }
      // What a server sent is kept, and only that: the same check can fail.
      let kept = ["cache", "cache/pages.sqlite", "catalogue/pending.jsonl", "catalogue/sync.lock"]
      for (arguments, expected) in [
        (["list", "--page", "2"] + live, "cache/pages.sqlite"),
        (["show", "1342"] + live, "catalogue/pending.jsonl"),
      ] {
        let before = Self.snapshot(app.dataDirectory)
        let run = try await app.run(arguments)
        #expect(run.status == 0, "\(arguments): \(run)")
        let changed = Self.changes(before, Self.snapshot(app.dataDirectory))
        #expect(changed.contains(expected), "\(arguments) changed \(changed)")
        #expect(changed.allSatisfy(kept.contains), "\(arguments) changed \(changed)")
      }
      try await holdings.expectIntact("reads")
    }
  }

  @Test func readsGoOnWhileAnotherProcessHoldsAWriteTransaction() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let add = try await app.run(["favorites", "add", "84", "--source", "embedded"])
    try #require(add.status == 0, "\(add)")
    let lock = try DatabaseLock(
      path: app.dataDirectory.appendingPathComponent("favorites.sqlite").path)

    // Each run's deadline (60 s) is longer than a writer's busy wait (30 s): a read that
    // waited for the lock would fail with "database is locked" rather than be killed.
    var runs: [Gutenberg.Run] = []
    for arguments in Self.reads { runs.append(try await app.run(arguments)) }
    lock.unlock()

    for run in runs {
      #expect(run.status == 0, "\(run)")
      #expect(run.err.isEmpty, "\(run)")
    }
    #expect(runs[3].outLines.map { $0.prefix(3) } == ["84\t"], "\(runs[3])")
    #expect(runs[1].out.hasPrefix("Frankenstein"), "\(runs[1])")
  }
}
