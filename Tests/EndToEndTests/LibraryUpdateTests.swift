import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// `library update` with the real binary against a loopback mirror that sends ETags and
/// Last-Modified and logs every request: one conditional request per file (through the
/// mirror's redirect), one at a time, a changed file replaced whole and the others untouched,
/// a 429's Retry-After waited out, a cut body leaving the old file intact, `--dry-run`
/// writing nothing, and the bookmarks and highlights of an updated book kept.
@Suite(.serialized, .ownThread)
struct LibraryUpdateTests {
  static let ids = [84, 1342, 11]

  /// A PG-style text of book `id`: a header of `headerLines` lines, then 300 numbered lines.
  static func text(id: Int, headerLines: Int = 2, edition: String = "first") -> Data {
    let header = (1...headerLines).map { "Header line \($0) of the Project Gutenberg eBook \(id)" }
    let body = (1...300).map { String(format: "Line %04d of book \(id), with words.", $0) }
    let lines =
      ["The Project Gutenberg eBook \(id), \(edition) edition"] + header
      + ["", "*** START OF THE PROJECT GUTENBERG EBOOK \(id) ***", ""] + body
      + ["", "*** END OF THE PROJECT GUTENBERG EBOOK \(id) ***", "", "Licence."]
    return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
  }

  /// A mirror serving the three books' texts (behind PG's redirect), and a data directory that
  /// has downloaded them into its library.
  struct Setup {
    var app: Gutenberg
    let server: TestServer
    let mirror: String

    static func start(pause: String = "0") async throws -> Setup {
      var app = try Gutenberg()
      let server = try await TestServer.start()
      for id in LibraryUpdateTests.ids {
        Setup.serve(id: id, text: LibraryUpdateTests.text(id: id), etag: "\"v1\"", on: server)
      }
      let url = server.url.absoluteString
      let mirror = url.hasSuffix("/") ? String(url.dropLast()) : url
      app.extraEnvironment["GUTENBERG_MIRROR"] = ""
      app.extraEnvironment["GUTENBERG_PG_PAUSE"] = pause
      let setup = Setup(app: app, server: server, mirror: mirror)
      let get = try await app.run(
        ["get"] + LibraryUpdateTests.ids.map(String.init) + [
          "--format", "txt", "--source", "embedded", "--mirror", mirror, "-o",
          app.dataDirectory.appendingPathComponent("books").path + "/",
        ])
      #expect(get.status == 0, "\(get)")
      #expect(get.outLines.count == 3, "\(get)")
      return setup
    }

    static func serve(
      id: Int, text: Data, etag: String, lastModified: String = "Sat, 01 Mar 2025 12:00:00 GMT",
      on server: TestServer
    ) {
      let path = "/cache/epub/\(id)/pg\(id).txt"
      server.server.redirect("/ebooks/\(id).txt.utf-8", to: path)
      server.server.serve(
        ServedFile(
          content: .bytes(text), contentType: "text/plain; charset=utf-8", etag: etag,
          lastModified: lastModified),
        at: path)
    }

    /// Book `id`'s file in the library.
    func file(_ id: Int) throws -> URL {
      let books = app.dataDirectory.appendingPathComponent("books")
      let names = try FileManager.default.contentsOfDirectory(atPath: books.path)
        .filter { $0.hasPrefix("\(id)-") && $0.hasSuffix(".txt") }
      #expect(names.count == 1, "\(names)")
      return books.appendingPathComponent(try #require(names.first))
    }

    func update(_ extra: [String] = []) async throws -> Gutenberg.Run {
      try await app.run(
        ["library", "update", "--source", "embedded", "--mirror", mirror] + extra)
    }

    func stop() async {
      await server.stop()
      app.cleanUp()
    }
  }

  /// Runs `body` on a fresh ``Setup``, stopping its server and removing its files after.
  static func with(pause: String = "0", _ body: (Setup) async throws -> Void) async throws {
    let setup = try await Setup.start(pause: pause)
    do {
      try await body(setup)
    } catch {
      await setup.stop()
      throw error
    }
    await setup.stop()
  }

  /// Every file below `directory`, by path, with its bytes (a directory: empty).
  static func snapshot(_ directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: directory.path) {
      let url = directory.appendingPathComponent(path)
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
      files[path] = isDirectory.boolValue ? Data() : try Data(contentsOf: url)
    }
    return files
  }

  @Test func onlyTheChangedFileIsFetchedAgainAndTheRestCostsA304() async throws {
    // The real pause: half a second between requests.
    try await Self.with(pause: "0.5") { setup in
      let changed = Self.text(id: 1342, headerLines: 5, edition: "second")
      Setup.serve(id: 1342, text: changed, etag: "\"v2\"", on: setup.server)
      let before84 = try Data(contentsOf: try setup.file(84))
      let logged = setup.server.server.fileRequests.count
      let started = ContinuousClock.now
      let run = try await setup.update()
      let elapsed = ContinuousClock.now - started
      #expect(run.status == 0, "\(run)")
      #expect(
        run.outLines == ["Checked 3 books: 1 updated, 2 unchanged, 0 failed (6 requests)"],
        "\(run)")
      #expect(run.err.contains("updated: 1342 txt "), "\(run)")
      #expect(try Data(contentsOf: try setup.file(1342)) == changed)
      #expect(try Data(contentsOf: try setup.file(84)) == before84)
      // Every request went to the mirror given, conditional on the ETag, with our User-Agent,
      // one file after the other: each book's redirect, then its file.
      let requests = Array(setup.server.server.fileRequests.dropFirst(logged))
      #expect(requests.count == 6, "\(requests)")
      #expect(requests.allSatisfy { $0.ifNoneMatch == "\"v1\"" }, "\(requests)")
      #expect(
        requests.allSatisfy { $0.userAgent?.hasPrefix("gutenberg/") == true }, "\(requests)")
      #expect(
        Set(requests.map(\.path)).count == 6
          && Set(requests.compactMap { Self.book(of: $0.path) }) == Set(Self.ids), "\(requests)")
      for pair in stride(from: 0, to: requests.count - 1, by: 2) {
        #expect(requests[pair].path.hasPrefix("/ebooks/"), "\(requests)")
        #expect(requests[pair + 1].path.hasPrefix("/cache/epub/"), "\(requests)")
        #expect(Self.book(of: requests[pair].path) == Self.book(of: requests[pair + 1].path))
      }
      // Paced: six requests, half a second between their starts, take 2.5 s at the least.
      #expect(elapsed >= .milliseconds(2_500), "\(elapsed)")
      // The library row has the new size and validator.
      let listed = try await setup.app.run(["library", "--json"])
      let rows = try #require(
        try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
      let row = try #require(rows.first { $0["id"] as? Int == 1342 })
      #expect(row["size"] as? Int == changed.count, "\(row)")
      #expect(row["validator"] as? String == "\"v2\"", "\(row)")

      // Again: every file is as the mirror has it, three 304s.
      let again = try await setup.update(["--json"])
      #expect(again.status == 0, "\(again)")
      let summary = try #require(
        try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any])
      #expect(summary["updated"] as? Int == 0, "\(again)")
      #expect(summary["unchanged"] as? Int == 3, "\(again)")
      #expect(summary["requests"] as? Int == 6, "\(again)")
      let books = summary["books"] as? [[String: Any]] ?? []
      #expect(
        books.compactMap { $0["result"] as? String } == Array(repeating: "unchanged", count: 3))
      let last = setup.server.server.fileRequests.suffix(6)
      #expect(last.filter { $0.path.hasSuffix("/pg1342.txt") }.map(\.ifNoneMatch) == ["\"v2\""])
    }
  }

  @Test(arguments: [429, 503]) func aRetryAfterIsWaitedOutThenTheFileIsChecked(status: Int)
    async throws
  {
    try await Self.with { setup in
      let before = setup.server.server.requests.count
      setup.server.server.faults = FaultPlan(statusScript: [
        ScriptedResponse(status: status, headers: ["Retry-After": "1"])
      ])
      let run = try await setup.update()
      #expect(run.status == 0, "\(run)")
      #expect(
        run.outLines == ["Checked 3 books: 0 updated, 3 unchanged, 0 failed (7 requests)"],
        "\(run)")
      // The 429 was one more request, for the same file, asked again after it.
      let targets = Array(setup.server.server.requests.dropFirst(before))
      #expect(targets.count == 7, "\(targets)")
      #expect(targets.count >= 2 && targets[0] == targets[1], "\(targets)")
    }
  }

  @Test func aCutBodyLeavesTheOldFileWholeAndTheOthersAreStillChecked() async throws {
    try await Self.with { setup in
      let file = try setup.file(84)
      let before = try Data(contentsOf: file)
      let changed = Self.text(id: 84, headerLines: 9, edition: "second")
      Setup.serve(id: 84, text: changed, etag: "\"v2\"", on: setup.server)
      setup.server.server.faults = FaultPlan(truncateBody: true)
      let cut = try await setup.update()
      #expect(cut.status == 1, "\(cut)")
      #expect(
        cut.outLines.first?.hasPrefix("Checked 3 books: 0 updated, 2 unchanged, 1 failed (")
          == true, "\(cut)")
      #expect(
        cut.errLines.contains {
          $0.hasPrefix("error: book 84 txt: ") && $0.hasSuffix("; the old file is kept")
        }, "\(cut)")
      #expect(try Data(contentsOf: file) == before)
      // Healed: the next update finishes it (resuming the part the cut left).
      setup.server.server.faults = FaultPlan()
      let healed = try await setup.update()
      #expect(healed.status == 0, "\(healed)")
      #expect(
        healed.outLines.first?.hasPrefix("Checked 3 books: 1 updated, 2 unchanged, 0 failed")
          == true, "\(healed)")
      #expect(try Data(contentsOf: file) == changed)
    }
  }

  @Test func aDryRunAsksButWritesNothing() async throws {
    try await Self.with { setup in
      let changed = Self.text(id: 11, headerLines: 4, edition: "second")
      Setup.serve(id: 11, text: changed, etag: "\"v2\"", on: setup.server)
      let before = try Self.snapshot(setup.app.dataDirectory)
      let logged = setup.server.server.fileRequests.count
      let run = try await setup.update(["--dry-run"])
      #expect(run.status == 0, "\(run)")
      #expect(
        run.outLines == [
          "Checked 3 books: 1 would be updated, 2 unchanged, 0 failed (6 requests); nothing written"
        ], "\(run)")
      #expect(run.err.contains("would update: 11 txt "), "\(run)")
      let now = try Self.snapshot(setup.app.dataDirectory)
      #expect(now.keys.sorted() == before.keys.sorted())
      #expect(now == before)
      let requests = setup.server.server.fileRequests.dropFirst(logged)
      #expect(requests.count == 6, "\(requests)")
      #expect(requests.allSatisfy { $0.ifNoneMatch == "\"v1\"" }, "\(requests)")
    }
  }

  @Test func theBookmarksOfAnUpdatedBookAreKeptAndAHighlightFollowsItsWords() async throws {
    try await Self.with { setup in
      let read = try await setup.app.run(
        ["read", "84", "--pager", "--source", "embedded"],
        input: "g 50%\nb halfway\n/Line 0200 of book 84\nhl the two hundredth\nq\n")
      #expect(read.status == 0, "\(read)")
      #expect(try Self.marks(setup.app).count == 2, "\(read)")
      // Three more header lines: every offset after them moves.
      let changed = Self.text(id: 84, headerLines: 5, edition: "second")
      Setup.serve(id: 84, text: changed, etag: "\"v2\"", on: setup.server)
      let run = try await setup.update()
      #expect(run.status == 0, "\(run)")
      #expect(
        run.outLines == [
          "Checked 3 books: 1 updated, 2 unchanged, 0 failed (6 requests); 1 highlight found "
            + "again in the new text; 1 bookmark may have moved"
        ], "\(run)")
      let after = try Self.marks(setup.app)
      #expect(after.count == 2, "\(after)")
      let highlight = try #require(after.first { $0.end != nil })
      let end = try #require(highlight.end)
      let passage = String(decoding: changed[highlight.offset..<end], as: UTF8.self)
      #expect(passage == "Line 0200 of book 84", "\(highlight)")
      let listed = try await setup.app.run(["bookmarks", "84"])
      #expect(listed.status == 0, "\(listed)")
      #expect(listed.out.contains("halfway"), "\(listed)")
      #expect(listed.out.contains("the two hundredth"), "\(listed)")
    }
  }

  @Test func aRowWithoutValidatorsIsAskedByItsFilesTimeAndTheSameBytesAreUnchanged()
    async throws
  {
    try await Self.with { setup in
      // A row recorded before validators were kept, at a mirror that ignores the condition
      // (its Last-Modified is not the file's time): the same bytes come back.
      let store = setup.app.dataDirectory.appendingPathComponent("favorites.sqlite").path
      try StoreRows.execute(
        store, "UPDATE download SET validator = NULL, etag = NULL, last_modified = NULL")
      let file = try setup.file(11)
      let before = try Data(contentsOf: file)
      let modified = try #require(
        try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
      let logged = setup.server.server.fileRequests.count
      let run = try await setup.update(["11"])
      #expect(run.status == 0, "\(run)")
      #expect(
        run.outLines == ["Checked 1 book: 0 updated, 1 unchanged, 0 failed (2 requests)"],
        "\(run)")
      #expect(run.err.contains("the mirror sent the file though it had not changed"), "\(run)")
      let asked = try #require(setup.server.server.fileRequests.dropFirst(logged).last)
      #expect(asked.ifNoneMatch == nil, "\(asked)")
      // The file's own time, as an HTTP date.
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
      #expect(asked.ifModifiedSince == formatter.string(from: modified), "\(asked)")
      #expect(try Data(contentsOf: file) == before)
      // Not even renamed over: the file is as it was, time and all.
      #expect(
        try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
          == modified)
      #expect(!FileManager.default.fileExists(atPath: file.path + ".part"))
      // Its validators are kept now: the next update is a 304 to If-None-Match.
      let again = try await setup.update(["11"])
      #expect(again.status == 0, "\(again)")
      #expect(setup.server.server.fileRequests.last?.ifNoneMatch == "\"v1\"")
      #expect(!again.err.contains("had not changed"), "\(again)")
    }
  }

  @Test func ctrlCInTheMiddleOfAFileLeavesTheOldOneWhole() async throws {
    try await Self.with { setup in
      let file = try setup.file(84)
      let before = try Data(contentsOf: file)
      // A long new text, which the mirror stops sending halfway.
      var changed = Data()
      while changed.count < 400_000 { changed += Self.text(id: 84, edition: "long") }
      Setup.serve(id: 84, text: changed, etag: "\"v2\"", on: setup.server)
      setup.server.server.faults = FaultPlan(stallMidBody: true)
      let part = URL(fileURLWithPath: file.path + ".part")
      let child = try setup.app.start([
        "library", "update", "84", "--source", "embedded", "--mirror", setup.mirror, "--timeout",
        "600",
      ])
      child.closeInput()
      try await Awaiting.condition("the part to hold the half the mirror sent") {
        let size = (try? FileManager.default.attributesOfItem(atPath: part.path))?[.size] as? Int
        return size == changed.count / 2
      }
      child.kill(SIGINT)
      let exit = await child.wait(timeout: .seconds(60))
      let err = String(decoding: child.stderr, as: UTF8.self)
      #expect(exit.code == 130, "\(exit) \(err)")
      #expect(err.contains("interrupted"), "\(err)")
      #expect(try Data(contentsOf: file) == before)
    }
  }

  /// No mirror named: every request goes to Project Gutenberg's bulk mirror, none to www (a
  /// loopback proxy stands in for the internet and refuses them); every book failing for want
  /// of the network is exit 69, and nothing in the library changes.
  @Test func withoutAMirrorTheFilesAreCheckedAtPGsBulkMirror() async throws {
    try await Self.with { setup in
      let proxy = try LoopbackProxy()
      var app = setup.app
      app.extraEnvironment["https_proxy"] = proxy.url.absoluteString
      app.extraEnvironment["http_proxy"] = proxy.url.absoluteString
      let before = try Self.snapshot(app.dataDirectory.appendingPathComponent("books"))
      let run = try await app.run(["library", "update", "--source", "embedded"])
      await proxy.stop()
      #expect(run.status == 69, "\(run)")
      #expect(run.err.contains("note: the files are checked at Project Gutenberg's mirror"))
      #expect(run.errLines.filter { $0.hasPrefix("error: book ") }.count == 3, "\(run)")
      #expect(!proxy.requestLines.isEmpty, "\(run)")
      #expect(
        proxy.requestLines.allSatisfy { $0 == "CONNECT aleph.pglaf.org:443 HTTP/1.1" },
        "\(proxy.requestLines)")
      #expect(try Self.snapshot(app.dataDirectory.appendingPathComponent("books")) == before)
    }
  }

  /// The book a request's path is for (`/ebooks/84.txt.utf-8`, `/cache/epub/84/pg84.txt`).
  static func book(of path: String) -> Int? {
    let parts = path.split(separator: "/")
    if parts.first == "ebooks", parts.count == 2 { return Int(parts[1].prefix { $0 != "." }) }
    if parts.first == "cache", parts.count >= 3 { return Int(parts[2]) }
    return nil
  }

  /// Book 84's bookmarks and highlights, from its store file.
  static func marks(_ app: Gutenberg) throws -> [(offset: Int, end: Int?, note: String)] {
    let path = app.dataDirectory.appendingPathComponent("favorites.sqlite").path
    return try StoreRows.fetch(
      path, "SELECT byte_offset, end_offset, note FROM bookmark WHERE id = 84 ORDER BY byte_offset"
    ).map { row in
      (
        Int((row["byte_offset"] ?? nil) ?? "") ?? -1,
        (row["end_offset"] ?? nil).flatMap { Int($0) },
        (row["note"] ?? nil) ?? ""
      )
    }
  }
}
