import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// Commands that only read (`list`, `show`, `status`, `favorites list`) open the favourites
/// file read-only: they change nothing in it, and a write transaction held by another process
/// does not hold them up.
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
