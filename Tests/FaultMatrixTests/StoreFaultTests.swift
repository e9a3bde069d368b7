import Foundation
import GutendexEngine
import TestTraits
import Testing

@testable import TestSupport

/// Rows of the fault matrix about the local store: damaged or blocked files, failing exports
/// and imports, a killed process, two processes at once.
@Suite(.serialized, .ownThread)
struct StoreFaultTests {
  // MARK: - Damaged or blocked database

  @Test func corruptDatabaseIsNamedAndLeftUntouched() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let file = app.dataDirectory.appendingPathComponent("favorites.sqlite")
    // Deterministic garbage of a plausible size, with no SQLite header.
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
    try garbage.write(to: file)
    let message =
      "error: \(file.path) is not a gutenberg database (file is not SQLite or is damaged); "
      + "it was left untouched: `gutenberg doctor --repair` copies what can be read into a "
      + "new file and keeps this one beside it"

    let runs = [
      try await app.run(["favorites", "list"]),
      try await app.run(["favorites", "add", "84", "--source", "embedded"]),
      try await app.run(["--source", "embedded"], input: "f 1\nq\n"),
      try await app.run(["favorites", "import", "-"], input: "[]"),
    ]

    for run in runs {
      #expect(run.status == 65, "\(run)")
      #expect(run.errLines == [message], "\(run)")
      #expect(run.stdout.isEmpty, "\(run)")
    }
    #expect(try Data(contentsOf: file) == garbage)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(!leftovers.contains { $0.hasPrefix("favorites.sqlite-") }, "\(leftovers)")
  }

  /// One page in the middle of a real favourites file overwritten: every command that opens
  /// the file, even one whose reads or writes would never meet the damaged page, is refused
  /// with the same message before anything is written, so the file stays byte for byte as it was.
  @Test func aDamagedPageRefusesWritesAsItRefusesReads() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let (file, held, damaged) = try await FavoritesFixture.damaged(app)
    let message =
      "error: \(file.path) is not a gutenberg database (file is not SQLite or is damaged); "
      + "it was left untouched: `gutenberg doctor --repair` copies what can be read into a "
      + "new file and keeps this one beside it"
    let engine = try EmbeddedCatalogue.load()
    // The largest id: its row goes to the last leaf, away from the damaged page.
    let newID = try #require(engine.bookIDs.filter { !held.contains($0) }.max())

    let list = try await app.run(["favorites", "list"])
    let add = try await app.run(["favorites", "add", String(newID), "--source", "embedded"])
    let toggle = try await app.run(["--source", "embedded"], input: "f 1\nq\n")
    // The browser too: the damage is found as the file opens, before anything is shown.
    for run in [list, add, toggle] {
      #expect(run.status == 65, "\(run)")
      #expect(run.errLines == [message], "\(run)")
    }
    // Checked through a read-only connection before a pool (which creates and drops a scratch
    // table as it opens: GRDB's issue 102) could touch it: byte for byte as it was.
    let after = try Data(contentsOf: file)
    #expect(after == damaged, "the damaged file was changed by being opened")
    let json = try #require(engine.bookJSON(id: newID))
    let title = try #require(
      (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["title"] as? String)
    for name in ["favorites.sqlite", "favorites.sqlite-wal"] {
      let bytes = (try? Data(contentsOf: app.dataDirectory.appendingPathComponent(name))) ?? Data()
      #expect(bytes.range(of: Data(title.utf8)) == nil, "book \(newID) was written to \(name)")
    }
  }

  static func id(of line: Data.SubSequence) -> Int? {
    (try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])?["id"] as? Int
  }

  /// A data directory that cannot be written (mode 0555, the binary run as `nobody` when the
  /// tests run as root, whom modes do not stop): everything that only reads works with one
  /// note, a change is refused in one line, and the files stay as they were.
  @Test func aReadOnlyDataDirectoryStillReads() async throws {
    var app = try Gutenberg()
    defer {
      chmod(app.dataDirectory.path, 0o755)
      app.cleanUp()
    }
    let add = try await app.run(["favorites", "add", "84", "--source", "embedded"])
    try #require(add.status == 0, "\(add)")
    let file = app.dataDirectory.appendingPathComponent("favorites.sqlite")
    let before = try Data(contentsOf: file)
    for directory in [app.root, app.dataDirectory.appendingPathComponent("cache")] {
      chmod(directory.path, 0o755)
    }
    chmod(app.dataDirectory.appendingPathComponent("cache").path, 0o555)
    chmod(app.dataDirectory.path, 0o555)
    if getuid() == 0 {
      // An installed copy: `nobody` may not be able to enter the folder the clone sits in.
      try await app.install(into: app.root.appendingPathComponent("prefix"))
      app.runAs = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    }
    let note =
      "note: \(app.dataDirectory.path) is read-only: favourites, library and cache are read as "
      + "they are, and changes are refused"

    let reads = [
      try await app.run(["list", "--source", "embedded"]),
      try await app.run(["favorites", "list"]),
      try await app.run(["show", "84", "--source", "embedded"]),
      try await app.run(["library"]),
      try await app.run(["status", "--source", "embedded"]),
    ]
    for run in reads {
      #expect(run.status == 0, "\(run)")
      #expect(run.errLines == [note], "\(run)")
    }
    #expect(reads[0].outLines.count == 32, "\(reads[0])")
    #expect(reads[1].outLines.map { $0.prefix(3) } == ["84\t"], "\(reads[1])")
    #expect(reads[2].out.contains("Frankenstein"), "\(reads[2])")

    let write = try await app.run(["favorites", "add", "1342", "--source", "embedded"])
    #expect(write.status == 1, "\(write)")
    let refusal =
      "error: cannot write to \(file.path): it is read-only, or a file is in the way of a directory"
    #expect(write.errLines == [note, refusal], "\(write)")
    #expect(try Data(contentsOf: file) == before)
    let listing = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(listing.sorted() == ["cache", "favorites.sqlite"], "\(listing)")
  }

  /// An import document over the 64 MiB limit is refused whole, from a file or from standard
  /// input, after reading no more than the limit: nothing imported, memory bounded.
  @Test func anImportOverTheLimitIsRefusedWhole() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let file = app.root.appendingPathComponent("huge.json")
    // Valid JSON (an empty array padded with spaces): only its size is wrong.
    var document = Data("[".utf8)
    document.append(Data(repeating: UInt8(ascii: " "), count: 65 << 20))
    document.append(Data("]".utf8))
    try document.write(to: file)

    let fromFile = try await app.run(["favorites", "import", file.path])
    let fromStandardInput = try await app.run(
      ["favorites", "import", "-"], inputData: document, timeout: .seconds(60))
    for (run, source) in [(fromFile, file.path), (fromStandardInput, "stdin")] {
      #expect(run.status == 65, "\(run)")
      #expect(
        run.errLines == [
          "error: cannot import \(source): size: larger than the 64 MiB import limit (about "
            + "20,000 favourites; split the file); nothing was imported"
        ], "\(run)")
      if let peak = run.exit.sampledPeakKiB { #expect(peak < 128 << 10, "peak \(peak) KiB") }
    }
    #expect(try await app.favoriteIDs().isEmpty)
  }

  @Test func directoryWhereTheDatabaseShouldBe() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let file = app.dataDirectory.appendingPathComponent("favorites.sqlite")
    try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)

    let list = try await app.run(["favorites", "list"])
    let browse = try await app.run(["--source", "embedded"], input: "q\n")

    for run in [list, browse] {
      #expect(run.status != 0 && run.status != nil, "\(run)")
      #expect(
        run.errLines == [
          "error: \(file.path) is a directory (or not a regular file) where the gutenberg "
            + "database file should be; nothing was changed"
        ], "\(run)")
    }
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory))
    #expect(isDirectory.boolValue)
    #expect(try FileManager.default.contentsOfDirectory(atPath: file.path).isEmpty)
  }

  /// A read-only data directory, as root: `chmod` does not stop root, so the data directory is
  /// put below a regular file instead, which no user can create a directory in.
  @Test func dataDirectoryThatCannotBeCreated() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let blocker = app.root.appendingPathComponent("blocker")
    let content = Data("a regular file, not a directory\n".utf8)
    try content.write(to: blocker)
    app.extraEnvironment["GUTENBERG_DATA_DIR"] = blocker.appendingPathComponent("data").path

    let list = try await app.run(["favorites", "list"])
    let browse = try await app.run(["--source", "embedded"], input: "q\n")

    for run in [list, browse] {
      #expect(run.status != 0 && run.status != nil, "\(run)")
      #expect(
        run.errLines == [
          "error: cannot write to \(blocker.path): it is read-only, or a file is in the way "
            + "of a directory"
        ], "\(run)")
    }
    #expect(try Data(contentsOf: blocker) == content)
  }

  @Test func corruptCacheIsSkippedWithAWarningAndLeftUntouched() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let cache = app.dataDirectory.appendingPathComponent("cache/pages.sqlite")
    try FileManager.default.createDirectory(
      at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
    let garbage = Data(repeating: 0x5A, count: 4096)
    try garbage.write(to: cache)

    let run = try await app.run(["--source", "embedded"], input: "f 1\nq\n")

    #expect(run.status == 0, "\(run)")
    #expect(run.errLines.first?.hasPrefix("warning: page cache unavailable: \(cache.path)") == true)
    #expect(run.out.contains("Added to favourites: Moby Dick"), "\(run)")
    #expect(try Data(contentsOf: cache) == garbage)
    #expect(try await app.favoriteIDs() == [2701])
  }

  // MARK: - Export

  @Test func exportToAnUnwritablePathFailsAndWritesNothing() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let seeded = try await app.run(["favorites", "add", "84", "11", "--source", "embedded"])
    try #require(seeded.status == 0, "\(seeded)")
    let before = try await app.run(["favorites", "list"]).out
    let blocker = app.root.appendingPathComponent("blocker")
    try Data("x".utf8).write(to: blocker)
    let underFile = blocker.appendingPathComponent("x.json").path

    let missing = try await app.run(["favorites", "export", "-o", "/nonexistent/dir/x.json"])
    let blocked = try await app.run(["favorites", "export", "-o", underFile])
    let prompt = try await app.run(
      ["--source", "embedded"], input: "export /nonexistent/dir/x.json\nF\nq\n")

    #expect(missing.status == 1, "\(missing)")
    #expect(
      missing.errLines == [
        "error: cannot export to /nonexistent/dir/x.json: cannot create a file in "
          + "/nonexistent/dir: No such file or directory; nothing was written"
      ], "\(missing)")
    #expect(blocked.status == 1, "\(blocked)")
    #expect(
      blocked.errLines == [
        "error: cannot export to \(underFile): cannot create a file in \(blocker.path): "
          + "Not a directory; nothing was written"
      ], "\(blocked)")
    #expect(prompt.status == 0, "\(prompt)")
    #expect(
      prompt.unwrapped.contains("error: cannot export to /nonexistent/dir/x.json"), "\(prompt)")
    #expect(prompt.out.contains("Favourites · 2 books"), "\(prompt)")
    #expect(!FileManager.default.fileExists(atPath: "/nonexistent/dir/x.json"))
    #expect(try Data(contentsOf: blocker) == Data("x".utf8))
    #expect(try await app.run(["favorites", "list"]).out == before)
  }

  /// A full disk, stood in for by `ulimit -f` (writes past 32 KiB fail with EFBIG, SIGXFSZ
  /// ignored). Not /dev/full: the export writes a temporary file beside the target and renames
  /// it, which as root would replace the /dev/full device node itself.
  @Test func exportThatRunsOutOfSpaceLeavesNoPartialFile() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    // 64 favourites: an export of about 100 KiB, over the limit.
    let seeded = try await app.run(["--source", "embedded"], input: "f 1-32\nn\nf 1-32\nq\n")
    try #require(seeded.status == 0, "\(seeded)")
    let before = try await app.run(["favorites", "list"]).out
    let directory = app.root.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    let target = directory.appendingPathComponent("favourites.json").path
    let limit = "trap '' XFSZ; ulimit -f 64; "

    let export = try await app.run(
      ["favorites", "export", "-o", target], inputData: Data(), shellPrefix: limit)
    let prompt = try await app.run(
      ["--source", "embedded"], inputData: Data("export \(target)\nF\nq\n".utf8),
      shellPrefix: limit)

    #expect(export.status == 1, "\(export)")
    #expect(
      export.errLines == [
        "error: cannot export to \(target): cannot write: File too large; nothing was written"
      ], "\(export)")
    #expect(prompt.status == 0, "\(prompt)")
    #expect(
      prompt.unwrapped.contains("error: cannot export to \(target): cannot write: File too large"),
      "\(prompt)")
    #expect(prompt.out.contains("Favourites · 64 books"), "\(prompt)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    #expect(try await app.run(["favorites", "list"]).out == before)
  }

  // MARK: - Import

  @Test func badImportFilesAreRejectedWithTheirLocation() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let seeded = try await app.run(["favorites", "add", "84", "11", "--source", "embedded"])
    try #require(seeded.status == 0, "\(seeded)")
    let before = try await app.run(["favorites", "list"]).out
    let good = try await app.run(["favorites", "export"]).out
    let truncated = app.root.appendingPathComponent("truncated.json")
    try Data(good.utf8.prefix(200)).write(to: truncated)
    let wrongVersion = app.root.appendingPathComponent("v99.json")
    let versioned = good.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 99")
      .replacingOccurrences(of: "\"version\": 1", with: "\"version\": 99")
    try #require(versioned != good, "the export has no version 1 to change: \(good.prefix(300))")
    try Data(versioned.utf8).write(to: wrongVersion)
    let notJSON = app.root.appendingPathComponent("notes.txt")
    try Data("hello, not json\n".utf8).write(to: notJSON)

    let cases: [(URL, String)] = [
      (truncated, "cannot import \(truncated.path): line "),
      (wrongVersion, "cannot import \(wrongVersion.path): version: unsupported version 99"),
      (notJSON, "cannot import \(notJSON.path): line 1, column 1: not valid JSON"),
    ]
    for (file, message) in cases {
      let run = try await app.run(["favorites", "import", file.path])
      #expect(run.status == 65, "\(run)")
      #expect(run.errLines.count == 1, "\(run)")
      #expect(run.err.hasPrefix("error: \(message)"), "\(run)")
      #expect(run.err.hasSuffix("; nothing was imported\n"), "\(run)")
      let prompt = try await app.run(
        ["--source", "embedded"], input: "import \(file.path)\nF\nq\n")
      #expect(prompt.status == 0, "\(prompt)")
      #expect(prompt.unwrapped.contains("error: \(message)"), "\(prompt)")
      #expect(prompt.out.contains("Favourites · 2 books"), "\(prompt)")
    }
    #expect(try await app.run(["favorites", "list"]).out == before)
  }

  // MARK: - Killed and concurrent processes

  /// Toggles rows 1…32 of page 1 over and over, kills the process with SIGKILL mid-burst, and
  /// checks the database opens and holds every acknowledged toggle (plus at most the one in
  /// flight, written but not yet reported).
  @Test func killDuringABurstOfTogglesKeepsEveryAcknowledgedToggle() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    let ids = try await server.engineIDs("/books/").ids
    let toggles = (0..<3_000).map { $0 % 32 + 1 }
    let child = try app.start(["--server", server.url.absoluteString])
    #expect(await child.waitForOutput { $0.contains("all books · page 1 of 11") })

    await child.write(Data(toggles.map { "f \($0)\n" }.joined().utf8))
    let acknowledgedSome = await child.waitForOutput(timeout: .seconds(60)) {
      $0.occurrences(of: " favourites: ") >= 40
    }
    child.kill()
    let exit = await child.wait(timeout: .seconds(60))
    await server.stop()
    defer { app.cleanUp() }

    #expect(acknowledgedSome, "\(child.stdoutText.suffix(2000))")
    #expect(exit.signal == SIGKILL, "the process ended on its own: \(exit)")
    let acknowledged = child.stdoutText.split(separator: "\n").filter {
      $0.hasPrefix("Added to favourites: ") || $0.hasPrefix("Removed from favourites: ")
    }.count
    #expect(acknowledged < toggles.count, "the kill came after the burst")
    func favourites(after count: Int) -> Set<Int> {
      var set = Set<Int>()
      for row in toggles.prefix(count) {
        if !set.insert(ids[row - 1]).inserted { set.remove(ids[row - 1]) }
      }
      return set
    }
    let list = try await app.run(["favorites", "list", "--source", "embedded"])
    #expect(list.status == 0, "\(list)")
    let stored = Set(list.tsvIDs)
    #expect(
      stored == favourites(after: acknowledged) || stored == favourites(after: acknowledged + 1),
      "\(acknowledged) acknowledged toggles, stored \(stored.sorted())")
    // And it is still writable.
    let add = try await app.run(["favorites", "add", "1342", "--source", "embedded"])
    #expect(add.status == 0, "\(add)")
  }

  @Test func twoProcessesTogglingDifferentFavouritesLoseNothing() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let page1 = try await server.engineIDs("/books/").ids
    let page2 = try await server.engineIDs("/books/?page=2").ids
    let rows = (1...32).map { "f \($0)\n" }.joined()

    let first = try app.start(["--server", server.url.absoluteString])
    let second = try app.start(["--server", server.url.absoluteString])
    async let firstInput: Void = first.write(Data((rows + "F\nq\n").utf8))
    async let secondInput: Void = second.write(Data(("g 2\n" + rows + "F\nq\n").utf8))
    _ = await (firstInput, secondInput)
    let exits = [
      await first.wait(timeout: .seconds(120)), await second.wait(timeout: .seconds(120)),
    ]
    await server.stop()

    for (exit, child) in zip(exits, [first, second]) {
      #expect(exit.code == 0, "\(exit)\n\(child.stdoutText.suffix(2000))")
      #expect(child.stdoutText.occurrences(of: "Added to favourites: ") == 32)
      #expect(!child.stdoutText.contains("error: "), "\(child.stdoutText.suffix(3000))")
      #expect(child.stderr.isEmpty, "\(String(decoding: child.stderr, as: UTF8.self))")
    }
    let stored = try await app.favoriteIDs()
    #expect(Set(stored) == Set(page1 + page2), "missing: \(Set(page1 + page2).subtracting(stored))")
    #expect(stored.count == 64)
  }
}
