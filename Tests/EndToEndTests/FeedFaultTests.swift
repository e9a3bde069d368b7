import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import Testing

@testable import TestSupport

/// `gutenberg sync --feed` when the feed cannot be had or read: one line naming the fault, the
/// previous catalogue kept, and the API walk still run; a broken record is named and skipped.
@Suite(.serialized)
struct FeedFaultTests {
  /// A feed of a few real books, book 84 with a summary the embedded catalogue lacks.
  static func feedFile(in directory: URL, extra: [(Int, String)] = []) throws -> URL {
    let books = try FixtureFiles.data("books.jsonl").split(separator: 0x0A).prefix(30)
      .map { Data($0) }
    let snapshot = try EmbeddedCatalogue.load()
    let json84 = try #require(snapshot.bookJSON(id: 84))
    var book84 = try #require(try JSONSerialization.jsonObject(with: json84) as? [String: Any])
    book84["summaries"] = ["A summary only the feed has."]
    let feed = directory.appendingPathComponent("feed-\(UUID().uuidString).tar.bz2")
    try FeedGenerator.writeFeed(
      books: books + [try JSONSerialization.data(withJSONObject: book84)], extra: extra,
      to: feed.path)
    return feed
  }

  struct Servers {
    var api: LoopbackServer
    var apiURL: String
    var feed: LoopbackServer
    var feedURL: String

    func stop() async {
      await api.stop()
      await feed.stop()
    }
  }

  /// The API (the embedded catalogue: nothing new) and a feed server of its own, whose faults
  /// touch only the feed.
  static func servers() async throws -> Servers {
    let engine = try EmbeddedCatalogue.load()
    let api = LoopbackServer(handler: engine, port: 0)
    let apiURL = try await api.start().absoluteString
    let feed = LoopbackServer(handler: engine, port: 0)
    let feedURL = try await feed.start().appendingPathComponent("rdf-files.tar.bz2").absoluteString
    return Servers(api: api, apiURL: apiURL, feed: feed, feedURL: feedURL)
  }

  /// Serves the fixture feed with `extra` records (and `faults`) and runs `sync --feed` in
  /// `app` against it.
  static func syncFeed(
    _ app: Gutenberg, extra: [(Int, String)] = [], faults: FaultPlan = .none
  ) async throws -> Gutenberg.Run {
    let servers = try await servers()
    servers.feed.serve(
      ServedFile(content: .file(try feedFile(in: app.root, extra: extra))),
      at: "/rdf-files.tar.bz2")
    servers.feed.faults = faults
    let sync = try await app.run(
      ["sync", "--feed", "--server", servers.apiURL, "--feed-url", servers.feedURL],
      timeout: .seconds(180))
    await servers.stop()
    return sync
  }

  /// Runs `sync --feed` (with `environment` added to the binary's) and checks the fault's one
  /// line, the kept catalogue and the walk; the sync's run, for checks of the line's text.
  @discardableResult
  func expectRefused(
    _ name: String, status: Int32 = 69, feedURL: String? = nil, timeout: String = "20",
    environment: [String: String] = [:], _ prepare: (Servers, URL) throws -> Void
  ) async throws -> Gutenberg.Run {
    let servers = try await Self.servers()
    var app = try Gutenberg()
    defer { app.cleanUp() }
    app.extraEnvironment.merge(environment) { _, new in new }
    try prepare(servers, app.root)
    let sync = try await app.run(
      [
        "sync", "--feed", "--server", servers.apiURL, "--feed-url", feedURL ?? servers.feedURL,
        "--timeout", timeout,
      ], timeout: .seconds(180))
    await servers.stop()
    #expect(sync.status == status, "\(name): \(sync)")
    #expect(sync.errLines.count == 1, "\(name): \(sync)")
    #expect(sync.err.hasPrefix("error: the feed: "), "\(name): \(sync)")
    #expect(sync.err.contains("the previous catalogue is kept"), "\(name): \(sync)")
    // The API walk still ran: its summary line (the feed's request, then one page: nothing new).
    #expect(sync.out.hasPrefix("0 new books, 0 updated, 2 requests"), "\(name): \(sync)")
    let show = try await app.run(["show", "84", "--json", "--source", "local"])
    #expect(show.out.contains(#""summaries":[]"#), "\(name): the catalogue changed: \(show)")
    // Nothing of the failed refresh is left: no temporary file, no index the state does not name.
    let left = try FileManager.default.contentsOfDirectory(
      atPath: app.dataDirectory.appendingPathComponent("catalogue").path)
    #expect(
      !left.contains { $0.hasPrefix(".") || $0.hasSuffix(".gdxindex") },
      "\(name): files left: \(left.sorted())")
    return sync
  }

  /// The feed's requests go through the one pipeline every request takes: `--verbose` prints
  /// each (the redirect's too), and `status` lists them among the recent requests.
  @Test func theFeedsRequestsAreLoggedLikeEveryOther() async throws {
    let servers = try await Self.servers()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    servers.feed.serve(
      ServedFile(content: .file(try Self.feedFile(in: app.root))), at: "/files/rdf.tar.bz2")
    servers.feed.redirect("/rdf-files.tar.bz2", to: "/files/rdf.tar.bz2")
    let sync = try await app.run(
      ["sync", "--feed", "--verbose", "--server", servers.apiURL, "--feed-url", servers.feedURL],
      timeout: .seconds(180))
    await servers.stop()
    #expect(sync.status == 0, "\(sync)")
    let moved = servers.feedURL.replacingOccurrences(
      of: "/rdf-files.tar.bz2", with: "/files/rdf.tar.bz2")
    #expect(sync.err.contains("request: GET \(servers.feedURL) → HTTP 302"), "\(sync)")
    #expect(sync.err.contains("request: GET \(moved) → HTTP 200"), "\(sync)")

    // In the browser, a sync due to refresh the feed, then the status screen's requests.
    let servers2 = try await Self.servers()
    var browser = app
    browser.extraEnvironment["GUTENBERG_FEED_URL"] = servers2.feedURL
    browser.extraEnvironment["GUTENBERG_FEED_MAX_AGE"] = "1"
    servers2.feed.serve(
      ServedFile(content: .file(try Self.feedFile(in: app.root))), at: "/rdf-files.tar.bz2")
    let run = try await browser.run(
      ["--server", servers2.apiURL], input: "sync\ns\nq\n", timeout: .seconds(180))
    await servers2.stop()
    #expect(run.status == 0, "\(run)")
    #expect(run.unwrapped.contains("/rdf-files.tar.bz2"), "status lists no feed request: \(run)")
  }

  @Test func aRefusedFeed() async throws {
    try await expectRefused("refused", feedURL: "http://127.0.0.1:9/rdf-files.tar.bz2") { _, _ in }
  }

  /// A libarchive that cannot be loaded (a file of its name that is not a library, first on
  /// `LD_LIBRARY_PATH`): the shared loader's one line, naming the file and the apt package that
  /// installs it, and exit 69 (unavailable): nothing is wrong with the feed itself.
  @Test func aLibarchiveThatCannotBeLoaded() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("no-libarchive-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("not a shared library\n".utf8).write(
      to: folder.appendingPathComponent("libarchive.so.13"))
    let sync = try await expectRefused(
      "no libarchive", status: 69, environment: ["LD_LIBRARY_PATH": folder.path]
    ) { servers, root in
      servers.feed.serve(
        ServedFile(content: .file(try Self.feedFile(in: root))), at: "/rdf-files.tar.bz2")
    }
    #expect(sync.err.contains("cannot load libarchive.so.13 ("), "\(sync)")
    #expect(sync.err.contains("install libarchive13 (apt-get install libarchive13)"), "\(sync)")
    #expect(!sync.err.contains("not a readable"), "\(sync)")
  }

  /// The same for libbz2, which decompresses the feed's blocks (opened first: libarchive
  /// needs it too, so the line names it rather than libarchive).
  @Test func aLibbz2ThatCannotBeLoaded() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("no-libbz2-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("not a shared library\n".utf8).write(
      to: folder.appendingPathComponent("libbz2.so.1.0"))
    let sync = try await expectRefused(
      "no libbz2", status: 69, environment: ["LD_LIBRARY_PATH": folder.path]
    ) { servers, root in
      servers.feed.serve(
        ServedFile(content: .file(try Self.feedFile(in: root))), at: "/rdf-files.tar.bz2")
    }
    #expect(sync.err.contains("cannot load libbz2.so.1.0 ("), "\(sync)")
    #expect(sync.err.contains("install libbz2-1.0 (apt-get install libbz2-1.0)"), "\(sync)")
    #expect(!sync.err.contains("not a readable"), "\(sync)")
  }

  @Test func aMissingFeed() async throws {
    try await expectRefused("404") { _, _ in }
  }

  @Test func aFeedThatIsNotABzip2Tar() async throws {
    try await expectRefused("garbage", status: 65) { servers, _ in
      servers.feed.serve(
        ServedFile(content: .bytes(Data("<html>Not here</html>".utf8))), at: "/rdf-files.tar.bz2")
    }
  }

  @Test func aTruncatedFeedFile() async throws {
    try await expectRefused("truncated file", status: 65) { servers, root in
      let whole = try Data(contentsOf: try Self.feedFile(in: root))
      servers.feed.serve(
        ServedFile(content: .bytes(whole.prefix(whole.count / 2))), at: "/rdf-files.tar.bz2")
    }
  }

  @Test func aBodyCutOffMidTransfer() async throws {
    try await expectRefused("cut off") { servers, root in
      servers.feed.serve(
        ServedFile(content: .file(try Self.feedFile(in: root))), at: "/rdf-files.tar.bz2")
      servers.feed.faults = FaultPlan(truncateBody: true)
    }
  }

  @Test func aBodyThatStalls() async throws {
    try await expectRefused("stalled", timeout: "2") { servers, root in
      servers.feed.serve(
        ServedFile(content: .file(try Self.feedFile(in: root))), at: "/rdf-files.tar.bz2")
      servers.feed.faults = FaultPlan(stallMidBody: true)
    }
  }

  /// Books with a number the index cannot hold (a year of 2^62 trapped the writer; a year
  /// of -2^31 or with too many digits, an id or a download count of 2^31 failed the whole
  /// refresh): each is skipped with one note naming it and the field, and every other book of
  /// the feed is read, the refresh committed, the next command answering.
  @Test func booksTheIndexCannotHoldAreSkippedByIDAndField() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let json = try #require(try EmbeddedCatalogue.load().bookJSON(id: 84))
    let base = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    func record(_ id: Int, birth: Int = 1800, downloads: Int = 5) throws -> String {
      var book = base
      book["id"] = id
      book["download_count"] = downloads
      book["authors"] = [["name": "Nobody", "birth_year": birth, "death_year": 1900]]
      return try FeedGenerator.record(try JSONSerialization.data(withJSONObject: book))
    }
    // 70,000 languages (the reader takes fewer than 2^16 per list): cut, said, and readable.
    func languages() throws -> String {
      var book = base
      book["id"] = 90008
      book["languages"] = ["zz-marker"]
      let values = (1..<70_000).map { "<rdf:value>l\($0)</rdf:value>" }.joined()
      return try FeedGenerator.record(try JSONSerialization.data(withJSONObject: book))
        .replacingOccurrences(of: ">zz-marker</rdf:value>", with: ">l0</rdf:value>" + values)
    }
    let digits = try record(90005, birth: 1_234_567).replacingOccurrences(
      of: ">1234567<", with: ">123456789012345678901234567890<")
    let extra: [(Int, String)] = [
      (90003, try record(90003, birth: 1 << 62)), (90004, try record(90004, birth: Int(Int32.min))),
      (90005, digits), (90006, try record(90006, downloads: 1 << 31)),
      (1 << 31, try record(1 << 31)), (90007, try record(90007)), (90008, try languages()),
    ]
    let sync = try await Self.syncFeed(app, extra: extra)
    #expect(sync.status == 0, "\(sync)")
    // The feed's line, then the books that arrived (90007, 90008).
    #expect(sync.errLines.count == 2, "\(sync)")
    #expect(sync.errLines.last == "2 new books: gutenberg new", "\(sync)")
    #expect(sync.err.hasPrefix("Feed: 33 books read; skipped unreadable records: "), "\(sync)")
    #expect(
      sync.err.contains("; cut to what the index holds: book 90008 (70000 languages, 65535 kept)"),
      "\(sync)")
    for (id, field) in [
      (90003, "authors[0].birth_year 4611686018427387904 is out of range"),
      (90004, "authors[0].birth_year -2147483648 is out of range"),
      (90005, "authors[0].birth_year of more than 18 digits is out of range"),
      (90006, "download_count 2147483648 is out of range"),
    ] {
      #expect(sync.err.contains("book \(id) (\(field)"), "\(id): \(sync)")
    }
    #expect(sync.err.contains("book 2147483648 (id 2147483648 is out of range"), "\(sync)")
    // The refresh took effect, with the sound book of the same feed and without the others.
    let show = try await app.run(["show", "84", "--json", "--source", "local"])
    #expect(show.out.contains("A summary only the feed has."), "\(show)")
    let sound = try await app.run(["show", "90007", "--json", "--source", "local"])
    #expect(sound.status == 0, "\(sound)")
    let cut = try await app.run(["show", "90008", "--json", "--source", "local"])
    let object = try JSONSerialization.jsonObject(with: cut.stdout) as? [String: Any]
    #expect((object?["languages"] as? [String])?.count == 65_535, "\(cut.err)")
    let skipped = try await app.run(["show", "90003", "--source", "local"])
    #expect(skipped.status != 0 && skipped.errLines.count == 1, "\(skipped)")
    let doctor = try await app.run(["doctor"])
    #expect(doctor.status == 0 && doctor.out.contains("catalogue: ok"), "\(doctor)")
  }

  @Test func aSlowFeedStillArrives() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let sync = try await Self.syncFeed(app, faults: FaultPlan(latency: .seconds(1)))
    #expect(sync.status == 0, "\(sync)")
    #expect(sync.err.hasPrefix("Feed: 31 books read"), "\(sync)")
  }

  @Test func aBrokenRecordIsNamedAndSkipped() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let broken = "<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"x\"><pgterms:ebook>"
    let sync = try await Self.syncFeed(app, extra: [(90002, broken)])
    #expect(sync.status == 0, "\(sync)")
    #expect(sync.errLines.count == 1, "\(sync)")
    #expect(sync.err.contains("book 90002 (not well-formed XML)"), "\(sync)")
    let show = try await app.run(["show", "84", "--json", "--source", "local"])
    #expect(show.out.contains("A summary only the feed has."), "\(show)")
  }
}
