import Catalog
import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Progress sync with the real binary against a loopback kosync server (``KOSyncDouble``): two
/// data directories act as two devices; a stalled server and a 401 each cost one note and lose
/// nothing; the key is kept mode 0600 and printed nowhere.
@Suite(.serialized, .ownThread)
struct ProgressSyncTests {
  static let password = "correct horse battery"
  static let key = MD5.hex(password)

  /// The fixture Gutendex server with book 84's EPUB (real-shaped) and text, and a kosync
  /// server with user alice.
  struct Servers {
    let books: TestServer
    let sync: LoopbackServer
    let syncURL: URL
    let double: KOSyncDouble
    let epub: Data

    static func start() async throws -> Servers {
      let books = try await TestServer.start()
      let epub = EPUBFixture.make(
        id: 84, title: "Frankenstein", chapters: 8, chapterBytes: 40_000, imageBytes: 200_000,
        seed: 3)
      try BookFiles.serve84(
        on: books.server,
        epub: ServedFile(content: .bytes(epub), contentType: "application/epub+zip"))
      let double = KOSyncDouble()
      double.addUser("alice", key: ProgressSyncTests.key)
      let sync = LoopbackServer(handler: double)
      let syncURL = try await sync.start()
      return Servers(books: books, sync: sync, syncURL: syncURL, double: double, epub: epub)
    }

    func stop() async {
      await books.stop()
      await sync.stop()
    }

    /// The key KOReader computes for the EPUB served (its partial MD5).
    func document() throws -> String {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "epub-\(UUID().uuidString).epub")
      try epub.write(to: file)
      defer { try? FileManager.default.removeItem(at: file) }
      return try #require(DocumentKey.binary(path: file.path))
    }

    /// A device: its own data directory, book files from the fixture server.
    func device() throws -> Gutenberg {
      try Gutenberg().mirrored(to: books.url)
    }

    /// Logs `app` in as alice.
    func login(_ app: Gutenberg, _ extra: [String] = []) async throws -> Gutenberg.Run {
      try await app.run(
        ["progress", "login", syncURL.absoluteString, "alice"] + extra,
        input: ProgressSyncTests.password + "\n")
    }

    func read(_ app: Gutenberg, _ input: String, _ extra: [String] = []) async throws
      -> Gutenberg.Run
    {
      try await app.run(
        ["read", "84", "--pager", "--server", books.url.absoluteString] + extra, input: input)
    }
  }

  /// The `line N of M` of each page the reader showed.
  static func pageLines(_ run: Gutenberg.Run) -> [Int] {
    run.outLines.compactMap { line in
      guard let range = line.range(of: " · line ") else { return nil }
      return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
  }

  @Test func theLoginKeepsOnlyTheKeyMode0600AndPrintsItNowhere() async throws {
    let servers = try await Servers.start()
    let app = try servers.device()
    defer { app.cleanUp() }
    let login = try await servers.login(app, ["--verbose"])
    #expect(login.status == 0, "\(login)")
    #expect(login.outLines.first?.hasPrefix("logged in as alice at ") == true, "\(login)")
    let file = app.dataDirectory.appendingPathComponent("progress/account.json")
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let stored = try String(contentsOf: file, encoding: .utf8)
    #expect(stored.contains(Self.key), "the key is kept")
    #expect(!stored.contains(Self.password), "the password is not")
    let auth = try #require(servers.double.requests.last)
    #expect(auth.path == "/users/auth" && auth.headers["x-auth-key"] == Self.key)
    #expect(auth.headers["accept"] == KOSyncClient.mediaType)

    let status = try await app.run(["progress", "status", "--verbose"])
    let json = try await app.run(["progress", "status", "--json"])
    #expect(status.status == 0 && json.status == 0, "\(status)\(json)")
    #expect(status.out.contains("the login works"), "\(status)")
    #expect(status.out.contains("(mode 0600)"), "\(status)")
    for run in [login, status, json] {
      for secret in [Self.key, Self.password] {
        #expect(!run.out.contains(secret) && !run.err.contains(secret), "\(run)")
      }
    }

    let wrong = try await app.run(
      ["progress", "login", servers.syncURL.absoluteString, "alice"], input: "nope\n")
    #expect(wrong.status == 1, "\(wrong)")
    #expect(wrong.errLines.count == 1 && wrong.errLines[0].contains("HTTP 401"), "\(wrong)")
    #expect(!wrong.err.contains(MD5.hex("nope")) && !wrong.err.contains("nope\n"))
    #expect(
      try String(contentsOf: file, encoding: .utf8) == stored, "a refused login changes nothing")

    let registered = try await app.run(
      ["progress", "login", servers.syncURL.absoluteString, "bob", "--register", "--verbose"],
      input: "bobs password\n")
    #expect(registered.status == 0, "\(registered)")
    // --verbose names each request's own method: the sign-up is a POST.
    #expect(
      registered.errLines.contains {
        $0.hasPrefix("request: POST ") && $0.contains("/users/create")
      },
      "\(registered)")
    #expect(registered.out.hasPrefix("registered as bob"), "\(registered)")
    let logout = try await app.run(["progress", "logout"])
    #expect(logout.status == 0 && !FileManager.default.fileExists(atPath: file.path))
    await servers.stop()
  }

  @Test func theSecondDeviceOpensTheBookAtTheFirstsPlace() async throws {
    let servers = try await Servers.start()
    let first = try servers.device()
    let second = try servers.device()
    defer {
      first.cleanUp()
      second.cleanUp()
    }
    for app in [first, second] {
      let login = try await servers.login(app)
      try #require(login.status == 0, "\(login)")
    }
    var reading = try await servers.read(first, String(repeating: "n\n", count: 4) + "q\n")
    #expect(reading.status == 0, "\(reading)")
    let pages = Self.pageLines(reading)
    let lastPage = try #require(pages.last, "\(reading)")
    #expect(lastPage > 1, "\(reading)")
    let document = try servers.document()
    let record = try #require(servers.double.stored(user: "alice", document: document))
    let pushed = try #require(record["percentage"] as? Double)
    #expect(pushed > 0 && pushed < 1, "\(record)")
    // KOReader's xpointer of the chapter (the EPUB has 8), so a KOReader taking it opens there.
    let progress = try #require(record["progress"] as? String)
    let chapter = try #require(Int(progress.drop { !$0.isNumber }.prefix { $0.isNumber }))
    #expect(progress == "/body/DocFragment[\(chapter)].0" && (1...8).contains(chapter))

    reading = try await servers.read(second, "\nq\n")
    #expect(reading.status == 0, "\(reading)")
    let offer = try #require(
      reading.outLines.first { $0.hasSuffix(": Enter jumps there, n stays") }, "\(reading)")
    #expect(offer.hasPrefix("gutenberg is at \(Int(pushed * 100))%"), "\(offer)")
    let opened = try #require(Self.pageLines(reading).first, "\(reading)")
    // Within one page of the first device's place (the reader shows 22 lines a page here).
    #expect(abs(opened - lastPage) <= 22, "opened at line \(opened), first device at \(lastPage)")

    // Asked again, n keeps the place this device has now; nothing is offered when it is newer.
    let again = try await servers.read(second, "q\n")
    #expect(!again.out.contains("Enter jumps there"), "\(again)")
    await servers.stop()
  }

  /// An EPUB's first page is shown before the rest of it is turned into text, sync or not:
  /// the place pushed and the place offered are still fractions of its whole text, so the
  /// second device opens within a page of the first.
  @Test func anEPUBsPlaceIsAFractionOfItsWholeText() async throws {
    let servers = try await Servers.start()
    let first = try servers.device()
    let second = try servers.device()
    defer {
      first.cleanUp()
      second.cleanUp()
    }
    for app in [first, second] {
      let login = try await servers.login(app)
      try #require(login.status == 0, "\(login)")
    }
    let epub = ["--format", "epub"]
    var reading = try await servers.read(first, String(repeating: "n\n", count: 6) + "q\n", epub)
    #expect(reading.status == 0, "\(reading)")
    let lastPage = try #require(Self.pageLines(reading).last, "\(reading)")
    #expect(lastPage > 1, "\(reading)")
    let record = try #require(servers.double.stored(user: "alice", document: servers.document()))
    let pushed = try #require(record["percentage"] as? Double)
    #expect(pushed > 0 && pushed < 0.5, "\(record)")

    reading = try await servers.read(second, "\nq\n", epub)
    #expect(reading.status == 0, "\(reading)")
    let offer = try #require(
      reading.outLines.first { $0.hasSuffix(": Enter jumps there, n stays") }, "\(reading)")
    #expect(offer.hasPrefix("gutenberg is at \(Int(pushed * 100))%"), "\(offer)")
    let opened = try #require(Self.pageLines(reading).first, "\(reading)")
    #expect(abs(opened - lastPage) <= 22, "opened at line \(opened), first device at \(lastPage)")
    await servers.stop()
  }

  @Test func aStalledServerCostsOneNoteAndThePlaceIsPushedLater() async throws {
    let servers = try await Servers.start()
    let app = try servers.device()
    defer { app.cleanUp() }
    try #require(try await servers.login(app).status == 0)
    servers.sync.faults = FaultPlan(holdUntilReleased: true)
    let reading = try await servers.read(app, "n\nn\nq\n", ["--timeout", "2"])
    servers.sync.faults = FaultPlan()
    servers.sync.releaseHeld()
    #expect(reading.status == 0, "\(reading)")
    #expect(Self.pageLines(reading).count >= 2, "the book was read: \(reading)")
    let notes = reading.errLines.filter { $0.contains("progress server") }
    #expect(notes.count == 1, "one note: \(reading.err)")
    #expect(notes.first?.contains("no answer in 2 s") == true, "\(reading.err)")

    let status = try await app.run(["progress", "status", "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any], "\(status)")
    #expect((object["queued"] as? [[String: Any]])?.first?["id"] as? Int == 84, "\(status)")
    let push = try await app.run(["progress", "push", "--json"])
    #expect(push.status == 0, "\(push)")
    #expect(push.out.contains("\"pushed\" : [\n    84\n  ]"), "\(push)")
    #expect(servers.double.stored(user: "alice", document: try servers.document()) != nil)
    await servers.stop()
  }

  @Test func a401CostsOneNoteAndThePlaceWaitsForTheLogin() async throws {
    let servers = try await Servers.start()
    let app = try servers.device()
    defer { app.cleanUp() }
    try #require(try await servers.login(app).status == 0)
    servers.double.removeUsers()
    let reading = try await servers.read(app, "n\nq\n")
    #expect(reading.status == 0, "\(reading)")
    // The EPUB's download has its note; the sync, one.
    let notes = reading.errLines.filter { $0.hasPrefix("note:") && !$0.contains("fetching") }
    #expect(notes.count == 1 && notes[0].contains("HTTP 401"), "\(reading.err)")
    #expect(!reading.err.contains(Self.key))

    let refused = try await app.run(["progress", "push"])
    #expect(refused.status == 1, "\(refused)")
    #expect(refused.errLines.count == 1, "\(refused)")
    servers.double.addUser("alice", key: Self.key)
    let push = try await app.run(["progress", "push"])
    #expect(push.status == 0 && push.out == "pushed book 84\n", "\(push)")
    #expect(servers.double.stored(user: "alice", document: try servers.document()) != nil)
    await servers.stop()
  }

  /// A key file other users may read (a `chmod`, a copy, a restore) is refused as ssh refuses
  /// a private key: one line that says how to fix it, no request sent with the key; the book
  /// still opens, with one note, and `chmod 600` as the line says is the fix.
  @Test func aKeyFileOthersMayReadIsRefusedWithOneLineSayingChmod600() async throws {
    let servers = try await Servers.start()
    let app = try servers.device()
    defer { app.cleanUp() }
    try #require(try await servers.login(app).status == 0)
    let file = app.dataDirectory.appendingPathComponent("progress/account.json")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    let sent = servers.double.requests.count

    let status = try await app.run(["progress", "status"])
    #expect(status.status == 1, "\(status)")
    #expect(status.errLines.count == 1, "\(status)")
    #expect(
      status.errLines.first?.hasSuffix(
        "mode 0644 lets other users read or change the key it "
          + "holds: chmod 600 \(file.path)") == true, "\(status)")
    let push = try await app.run(["progress", "push"])
    #expect(push.status == 1 && push.errLines.count == 1, "\(push)")
    #expect(push.err.contains("chmod 600 \(file.path)"), "\(push)")

    let reading = try await servers.read(app, "q\n")
    #expect(reading.status == 0, "\(reading)")
    #expect(!reading.outLines.isEmpty, "the book opens: \(reading)")
    let notes = reading.errLines.filter { $0.contains("chmod 600") }
    #expect(notes.count == 1 && notes[0].hasPrefix("note: "), "\(reading.err)")
    #expect(servers.double.requests.count == sent, "nothing was sent with the key")

    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
    let fixed = try await app.run(["progress", "status"])
    #expect(fixed.status == 0 && fixed.out.contains("the login works"), "\(fixed)")
    await servers.stop()
  }
}
