import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// `gutenberg doctor`: the data directory's files checked without being changed, and damaged
/// favourites files replaced by what could still be read, the old file kept beside them.
@Suite(.serialized, .ownThread)
struct DoctorTests {
  /// Every file under `directory` (recursively) with its bytes and modification time.
  static func snapshot(_ directory: URL) throws -> [String: (Data, Date)] {
    var files: [String: (Data, Date)] = [:]
    let enumerator = try #require(FileManager.default.enumerator(atPath: directory.path))
    while let name = enumerator.nextObject() as? String {
      let url = directory.appendingPathComponent(name)
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
      files[name] = (
        try Data(contentsOf: url), try #require(attributes[.modificationDate] as? Date)
      )
    }
    return files
  }

  static func expectUnchanged(
    _ before: [String: (Data, Date)], _ after: [String: (Data, Date)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(after.keys.sorted() == before.keys.sorted(), sourceLocation: sourceLocation)
    for (name, (bytes, date)) in before {
      #expect(after[name]?.0 == bytes, "\(name) changed", sourceLocation: sourceLocation)
      #expect(after[name]?.1 == date, "\(name)'s mtime changed", sourceLocation: sourceLocation)
    }
  }

  /// The kept file named at the end of a repair line.
  static func keptFile(_ line: String, in directory: URL) throws -> URL {
    let marker = "the damaged file is kept as "
    let range = try #require(line.range(of: marker), "\(line)")
    return directory.appendingPathComponent(String(line[range.upperBound...]))
  }

  @Test func aHealthyDirectorySaysOkAndChangesNothing() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    _ = try await FavoritesFixture.importBooks(app)
    let before = try Self.snapshot(app.dataDirectory)
    try #require(before["favorites.sqlite"] != nil, "\(before.keys)")

    let check = try await app.run(["doctor"])
    let repair = try await app.run(["doctor", "--repair"])

    for run in [check, repair] {
      #expect(run.status == 0, "\(run)")
      #expect(run.outLines.first == "favorites.sqlite: ok", "\(run)")
      #expect(run.outLines.contains { $0.hasPrefix("cache/pages.sqlite: ok") }, "\(run)")
      #expect(run.outLines.contains { $0.hasPrefix("catalogue: ok") }, "\(run)")
      #expect(run.errLines.isEmpty, "\(run)")
    }
    Self.expectUnchanged(before, try Self.snapshot(app.dataDirectory))
  }

  /// One table leaf in the middle of a real favourites file overwritten: the check reports it
  /// and changes nothing; the repair keeps every favourite of the other pages, keeps the old
  /// file byte for byte, and the store works again.
  @Test func aDamagedPageIsReportedThenRepairedKeepingTheOtherPages() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let (_, held, damaged) = try await FavoritesFixture.damaged(app)
    let before = try Self.snapshot(app.dataDirectory)

    let check = try await app.run(["doctor"])
    #expect(check.status == 65, "\(check)")
    #expect(check.outLines.first?.hasPrefix("favorites.sqlite: damaged (") == true, "\(check)")
    #expect(check.errLines.last?.contains("gutenberg doctor --repair") == true, "\(check)")
    Self.expectUnchanged(before, try Self.snapshot(app.dataDirectory))

    let repair = try await app.run(["doctor", "--repair"])
    #expect(repair.status == 0, "\(repair)")
    let line = try #require(repair.outLines.first, "\(repair)")
    let counts = try #require(
      line.firstMatch(of: #/^favorites\.sqlite: recovered (\d+) of (\d+) favourites; /#), "\(line)")
    let recovered = try #require(Int(counts.1))
    #expect(Int(counts.2) == held.count, "\(line)")
    // One leaf of 4 KiB holds a few favourites: the rest of the file is read back.
    #expect(recovered > 0 && recovered < held.count && recovered >= held.count - 40, "\(line)")
    let kept = try Self.keptFile(line, in: app.dataDirectory)
    #expect(
      kept.lastPathComponent.firstMatch(of: #/^favorites\.sqlite\.damaged-\d{8}-\d{6}$/#) != nil)
    #expect(try Data(contentsOf: kept) == damaged, "the damaged file was not kept as it was")

    let list = try await app.run(["favorites", "list"])
    #expect(list.status == 0, "\(list)")
    let listed = Set(list.outLines.compactMap { Int($0.split(separator: "\t").first ?? "") })
    #expect(listed.count == recovered && listed.isSubset(of: held), "\(list)")
    let add = try await app.run(["favorites", "add", "84", "--source", "embedded"])
    #expect(add.status == 0, "\(add)")
    let again = try await app.run(["doctor"])
    #expect(again.status == 0 && again.outLines.first == "favorites.sqlite: ok", "\(again)")
  }

  /// A favourites file cut short in the middle of a page: the pages before the cut are read
  /// back (SQLite refuses even the schema of such a file unless told to read what is there).
  @Test func aFileCutShortMidPageKeepsThePagesBeforeTheCut() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let held = try await FavoritesFixture.importBooks(app)
    let file = app.dataDirectory.appendingPathComponent("favorites.sqlite")
    let whole = try Data(contentsOf: file)
    let cut = Data(whole.prefix(whole.count / 2 + 1000))
    try cut.write(to: file)

    let check = try await app.run(["doctor"])
    #expect(check.status == 65, "\(check)")
    #expect(check.outLines.first?.hasPrefix("favorites.sqlite: damaged (") == true, "\(check)")
    #expect(try Data(contentsOf: file) == cut)

    let repair = try await app.run(["doctor", "--repair"])
    #expect(repair.status == 0, "\(repair)")
    let line = try #require(repair.outLines.first, "\(repair)")
    let counts = try #require(
      line.firstMatch(of: #/^favorites\.sqlite: recovered (\d+)/#), "\(line)")
    let recovered = try #require(Int(counts.1))
    #expect(recovered > 0 && recovered < held.count, "\(line)")
    #expect(try Data(contentsOf: try Self.keptFile(line, in: app.dataDirectory)) == cut)
    let list = try await app.run(["favorites", "list"])
    #expect(list.status == 0 && list.outLines.count == recovered, "\(list)")
  }

  /// A file that is not SQLite at all: reported, then replaced by an empty store that works,
  /// the old bytes kept.
  @Test func aFileThatIsNotSQLiteBecomesAnEmptyStoreAndIsKept() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let file = app.dataDirectory.appendingPathComponent("favorites.sqlite")
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
    try garbage.write(to: file)

    let check = try await app.run(["doctor"])
    #expect(check.status == 65, "\(check)")
    #expect(check.outLines.first == "favorites.sqlite: damaged (not an SQLite file)", "\(check)")
    #expect(try Data(contentsOf: file) == garbage)

    let repair = try await app.run(["doctor", "--repair"])
    #expect(repair.status == 0, "\(repair)")
    let line = try #require(repair.outLines.first, "\(repair)")
    #expect(
      line.hasPrefix(
        "favorites.sqlite: nothing could be read (not an SQLite file); started an empty store; "
          + "the damaged file is kept as favorites.sqlite.damaged-"), "\(line)")
    #expect(try Data(contentsOf: try Self.keptFile(line, in: app.dataDirectory)) == garbage)
    let add = try await app.run(["favorites", "add", "84", "--source", "embedded"])
    let list = try await app.run(["favorites", "list"])
    #expect(add.status == 0, "\(add)")
    #expect(list.status == 0 && list.outLines.count == 1, "\(list)")
  }

  /// Polls `file` until the binary has written a line to it (`GUTENBERG_TEST_LOCK_WAIT_LOG`:
  /// the repair began to wait for a lock); throws an `AwaitTimeout` if none has by
  /// `Awaiting.standard`.
  static func waitForLockWait(_ file: URL) async throws {
    try await Awaiting.condition(
      "doctor --repair to wait for the lock (a line in \(file.lastPathComponent))"
    ) { (try? Data(contentsOf: file))?.contains(UInt8(ascii: "\n")) == true }
  }

  /// Another repair holds the damaged file's `flock` and replaces the file meanwhile: this
  /// repair waits for it (the binary says so in the lock-wait log), then finds the new file
  /// sound and keeps no second copy.
  @Test func aRepairWaitsForAnotherAndThenFindsTheFileSound() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    _ = try await FavoritesFixture.importBooks(app)
    let file = app.dataDirectory.appendingPathComponent("favorites.sqlite")
    let sound = try FavoritesFixture.damageAMiddleLeaf(file)
    let waits = app.root.appendingPathComponent("lock-waits.log")
    #expect(FileManager.default.createFile(atPath: waits.path, contents: nil))
    app.extraEnvironment["GUTENBERG_TEST_LOCK_WAIT_LOG"] = waits.path
    let descriptor = open(file.path, O_RDONLY)
    try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)

    let child = try app.start(["doctor", "--repair"])
    try await Self.waitForLockWait(waits)
    // The other repair's swap: a sound file renamed over the damaged one.
    let replacement = app.root.appendingPathComponent("replacement.sqlite")
    try sound.write(to: replacement)
    try #require(rename(replacement.path, file.path) == 0)
    close(descriptor)
    let exit = await child.wait(timeout: .seconds(120))

    #expect(exit.code == 0, "\(child.stdoutText)\n\(String(decoding: child.stderr, as: UTF8.self))")
    #expect(child.stdoutText.hasPrefix("favorites.sqlite: ok\n"), "\(child.stdoutText)")
    let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(!names.contains { $0.contains(".damaged-") || $0.hasSuffix(".recovering") }, "\(names)")
    #expect(try Data(contentsOf: file) == sound)
  }

  /// Another process holds the damaged file's SQLite write lock: the repair waits for it
  /// (said in the lock-wait log) and leaves the file in place until the lock is free, so a
  /// write that commits meanwhile is not lost with the old file; then it repairs.
  @Test func aRepairWaitsForAWriterHoldingTheLock() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let (file, _, damaged) = try await FavoritesFixture.damaged(app)
    let waits = app.root.appendingPathComponent("lock-waits.log")
    #expect(FileManager.default.createFile(atPath: waits.path, contents: nil))
    app.extraEnvironment["GUTENBERG_TEST_LOCK_WAIT_LOG"] = waits.path
    let lock = try DatabaseLock(path: file.path)

    let child = try app.start(["doctor", "--repair"])
    try await Self.waitForLockWait(waits)
    let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(!names.contains { $0.contains(".damaged-") }, "repaired under a writer: \(names)")
    #expect(try Data(contentsOf: file) == damaged)
    lock.unlock()
    let exit = await child.wait(timeout: .seconds(120))

    #expect(exit.code == 0, "\(child.stdoutText)\n\(String(decoding: child.stderr, as: UTF8.self))")
    #expect(child.stdoutText.hasPrefix("favorites.sqlite: recovered "), "\(child.stdoutText)")
    let list = try await app.run(["favorites", "list"])
    #expect(list.status == 0 && !list.outLines.isEmpty, "\(list)")
  }

  /// Another process has the damaged file open (a browser left running): swapped under it,
  /// the file would take that process's later writes with it, and its close would delete the
  /// new file's `-wal` and `-shm`. The repair refuses, names the process and changes nothing;
  /// once the process has closed the file, the repair goes through.
  @Test func aRepairRefusesWhileAnotherProcessHasTheFileOpen() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let (file, _, damaged) = try await FavoritesFixture.damaged(app)
    // This test process is the other one: a connection that has read, and stays open.
    let holder = try OpenDatabase(path: file.path)

    let refused = try await app.run(["doctor", "--repair"])
    #expect(refused.status == 1, "\(refused)")
    #expect(
      refused.errLines.contains {
        $0.contains("favorites.sqlite") && $0.contains("open in another process (pid \(getpid()))")
      }, "\(refused)")
    #expect(try Data(contentsOf: file) == damaged, "the file was changed")
    let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(!names.contains { $0.contains(".damaged-") || $0.contains(".recovering") }, "\(names)")

    try holder.close()
    let repaired = try await app.run(["doctor", "--repair"])
    #expect(repaired.status == 0, "\(repaired)")
    #expect(
      repaired.outLines.first?.hasPrefix("favorites.sqlite: recovered ") == true, "\(repaired)")
  }
}
