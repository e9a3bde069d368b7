import Foundation
import Gutendex
import GutendexServer
import Synchronization
import Testing

@testable import GutendexEngine
@testable import TestSupport

/// A sync's walk is bounded whatever the server sends: it stops by itself, with one line, and
/// keeps what it fetched; a book that cannot be read is skipped and named, the rest of its page
/// kept; a damaged local catalogue is rebuilt by the next sync.
@Suite(.serialized)
struct BoundedSyncTests {
  typealias Directory = CatalogueSyncTests.Directory

  /// A server that never ends a walk: every page holds 32 books no one has seen, and a `next`
  /// link; `descending` pages go down in ids as a real server's do, the others up (each page
  /// newer than the last, as a hostile or broken server might).
  final class EndlessServer: Requestable {
    let descending: Bool
    let count: Int
    private let served = Mutex(0)

    init(descending: Bool, count: Int) {
      self.descending = descending
      self.count = count
    }

    var pagesServed: Int { served.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      let page = served.withLock { served -> Int in
        served += 1
        return served
      }
      let first = descending ? 50_000_000 - 32 * page : 50_000_000 + 32 * page
      let books = try SyncFixture.newBooks(32, firstID: first).reversed()
      let next = "http://127.0.0.1/books/?page=\(page + 1)&sort=descending"
      let body =
        #"{"count":\#(count),"next":"\#(next)","previous":null,"results":["#
        + books.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",") + "]}"
      return HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8),
        url: request.url)
    }
  }

  static func client(_ transport: any Requestable) -> GutendexClient {
    var client = GutendexClient(server: URL(string: "http://127.0.0.1")!, transport: transport)
    client.retry = .none
    return client
  }

  @Test func aWalkStopsAfterTheCountsPagesAndTwoMore() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    // 100 books are 4 pages: at most 6 are fetched.
    let server = EndlessServer(descending: true, count: 100)
    let outcome = await CatalogueSync(client: Self.client(server), files: directory.files).run(
      holdings: [])

    #expect(server.pagesServed == 6, "\(server.pagesServed) pages")
    #expect(outcome.run.result == .partial, "\(outcome.run)")
    #expect(outcome.run.note?.contains("more pages than its count of 100 books") == true)
    #expect(outcome.run.note?.contains("\n") == false)
    // What it fetched is kept, and the next sync does not resume the endless walk.
    #expect(outcome.run.added == 6 * 32)
    #expect(try directory.files.openEngine().bookJSON(id: 50_000_000 - 32) != nil)
    #expect(directory.files.readCursor() == nil)
  }

  @Test func aWalkStopsWhenIdsStopGoingDown() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let server = EndlessServer(descending: false, count: 1_000_000)
    let outcome = await CatalogueSync(client: Self.client(server), files: directory.files).run(
      holdings: [])

    #expect(server.pagesServed == 2, "\(server.pagesServed) pages")
    #expect(outcome.run.result == .partial, "\(outcome.run)")
    #expect(outcome.run.note?.contains("stopped going down in ids") == true, "\(outcome.run)")
    #expect(directory.files.readPending().isEmpty)
  }

  /// Issue 25 item 3: a server that keeps sending new ids, each page lower than the last, with
  /// a count that calls for 42 pages, over real HTTP on loopback. The walk stops once the
  /// pending list would pass its bound, which holds: nothing past it is ever written.
  @Test func aServerThatKeepsSendingNewIdsCannotGrowThePendingListPastItsBound() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let endless = EndlessServer(descending: true, count: 40 * 32)
    let server = LoopbackServer(handler: endless, port: 0)
    let url = try await server.start()
    var sync = CatalogueSync(
      client: GutendexClient(server: url, transport: CurlTransport(), retry: .none),
      files: directory.files)
    sync.pendingLimit = 10 * 32
    let outcome = await sync.run(holdings: [])
    await server.stop()

    #expect(endless.pagesServed == 11, "\(endless.pagesServed) pages")
    #expect(outcome.run.result == .partial, "\(outcome.run)")
    #expect(
      outcome.run.note?.contains("more books than a sync keeps pending (320)") == true,
      "\(outcome.run)")
    #expect(outcome.run.added == 10 * 32, "what it kept is merged, no more")
    #expect(directory.files.readCursor() == nil, "the endless walk is not resumed")
  }

  /// A sync that meets another's lock is told apart by the error's kind (never by its text),
  /// which names the holder; the line people read is unchanged.
  @Test func aSyncThatMeetsAnothersLockIsBusyByTypeAndNamesItsHolder() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    try directory.files.createDirectory()
    let held = try SyncLock(directory.files.lockURL)
    defer { held.release() }
    let refused = #expect(throws: SyncFileError.self) { try SyncLock(directory.files.lockURL) }
    #expect(refused?.kind == .locked(by: getpid()))
    #expect(refused?.description == "another sync of this data directory is running")

    let server = EndlessServer(descending: true, count: 1)
    let outcome = await CatalogueSync(client: Self.client(server), files: directory.files).run(
      holdings: [])
    #expect(outcome.run.cause == .busy, "\(outcome.run)")
    #expect(outcome.run.result == .failed)
    #expect(outcome.run.note == "another sync of this data directory is running")
    #expect(server.pagesServed == 0)
  }

  @Test func booksSeenWhileBrowsingStopBeingKeptPastTheirBound() throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let files = directory.files
    let book = try #require(try SyncFixture.newBooks(1, firstID: 60_000_000).first)
    try files.upsertSeen([book])
    #expect(files.readPending() == [book], "kept while under the bound")
    // A pending list at its bound (whole lines, as appends leave it).
    let line = Data(repeating: UInt8(ascii: "x"), count: 1023) + Data([0x0A])
    var filler = Data()
    filler.reserveCapacity(LocalCatalogueFiles.seenLimit)
    for _ in 0..<(LocalCatalogueFiles.seenLimit / line.count) { filler.append(line) }
    let handle = try FileHandle(forWritingTo: files.pendingURL)
    try handle.seekToEnd()
    try handle.write(contentsOf: filler)
    try handle.close()
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: files.pendingURL.path)[.size] as? Int)

    let later = try #require(try SyncFixture.newBooks(1, firstID: 60_000_001).first)
    try files.upsertSeen([later])
    let after = try FileManager.default.attributesOfItem(atPath: files.pendingURL.path)[.size]
    #expect(after as? Int == size, "not kept past the bound")
    #expect(files.readPending().last?.starts(with: Data("xxx".utf8)) == true)
  }

  /// A page of the real catalogue's newest books with one book that cannot be read.
  final class OneBadBook: Requestable {
    let engine: GutendexEngine
    init(engine: GutendexEngine) { self.engine = engine }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      var response = try await engine.send(request)
      guard request.url.query()?.contains("ids=") != true else { return response }
      let text = String(decoding: response.body, as: UTF8.self)
      // The second book's title becomes a number: that book cannot be read, the others can.
      guard let first = text.range(of: #"},{"id":"#),
        let title = text.range(of: #""title":""#, range: first.upperBound..<text.endIndex)
      else { return response }
      response.body = Data(text.replacingCharacters(in: title, with: #""title":7,"x":""#).utf8)
      return response
    }
  }

  @Test func aBookThatCannotBeReadIsSkippedAndNamedAndTheRestOfItsPageKept() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let world = CatalogueSyncTests.world
    let engine = try SyncFixture.server(
      embedded: world.embedded, upserting: Array(world.added.prefix(40)))
    let outcome = await CatalogueSync(
      client: Self.client(OneBadBook(engine: engine)), files: directory.files
    ).run(holdings: [])

    // Each page's second book is left out: the first page's (id firstID + 38) among them.
    let badID = world.firstID + 38
    #expect(outcome.run.note?.contains("book \(badID)") == true, "\(outcome.run)")
    #expect(outcome.run.note?.contains("skipped") == true)
    let local = try directory.files.openEngine()
    #expect(local.bookJSON(id: badID) == nil)
    #expect(local.bookJSON(id: world.firstID + 39) != nil)
    #expect(outcome.run.added == 38, "\(outcome.run)")
  }

  @Test func aDamagedStateFileIsRebuiltByTheNextSync() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    try FileManager.default.createDirectory(
      at: directory.files.directory, withIntermediateDirectories: true)
    try Data("not json".utf8).write(to: directory.files.stateURL)
    let world = CatalogueSyncTests.world
    let engine = try SyncFixture.server(
      embedded: world.embedded, upserting: Array(world.added.prefix(10)))
    #expect(throws: SyncFileError.self) { try directory.files.openEngine() }

    let outcome = await CatalogueSync(client: Self.client(engine), files: directory.files).run(
      holdings: [])

    #expect(outcome.run.result == .ok, "\(outcome.run)")
    #expect(outcome.run.note?.contains("damaged") == true, "\(outcome.run)")
    #expect(outcome.run.added == 10)
    let state = try #require(try directory.files.readState())
    #expect(state.bookCount == world.embedded.count + 10)
    #expect(state.booksFromBase == world.embedded.count && state.booksAddedSince == 10)
    #expect(try directory.files.openEngine().bookCount == world.embedded.count + 10)
  }

  @Test func aSyncWritesADeltaAndLeavesTheBaseAlone() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let world = CatalogueSyncTests.world
    let engine = try SyncFixture.server(
      embedded: world.embedded, upserting: Array(world.added.prefix(100)))
    let outcome = await CatalogueSync(client: Self.client(engine), files: directory.files).run(
      holdings: [])

    #expect(outcome.run.result == .ok && outcome.run.added == 100, "\(outcome.run)")
    let state = try #require(try directory.files.readState())
    #expect(state.indexFile == nil, "the base is still the embedded snapshot")
    let delta = try #require(directory.files.deltaURL(state))
    let size = try #require(try delta.resourceValues(forKeys: [.fileSizeKey]).fileSize)
    #expect(size < 1 << 20, "\(size) bytes for 100 books")
    #expect(state.bookCount == world.embedded.count + 100)
    #expect(state.booksAddedSince == 100)
  }

  @Test func aNewBaseIsInstalledAndKeepsOnlyTheDeltaBooksItLacks() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let world = CatalogueSyncTests.world
    let engine = try SyncFixture.server(
      embedded: world.embedded, upserting: Array(world.added.prefix(40)))
    _ = await CatalogueSync(client: Self.client(engine), files: directory.files).run(holdings: [])
    // The new base (as a feed refresh writes it) holds the first 30 new books, not the last 10.
    let baseBooks = try GutendexEngine(books: world.embedded + world.added.prefix(30))
    let index = try CatalogueSnapshot.make(records: baseBooks.allRecords(), keepingSummaries: true)
    let file = directory.url.appendingPathComponent("feed.gdxindex")
    try index.write(to: file)

    let state = try directory.files.installBase(indexAt: file)

    #expect(!FileManager.default.fileExists(atPath: file.path))
    #expect(state.booksFromBase == world.embedded.count + 30)
    #expect(state.booksAddedSince == 10)
    let local = try directory.files.openEngine()
    #expect(local.bookCount == world.embedded.count + 40)
    #expect(local.deltaBookIDs == (30..<40).map { world.firstID + $0 })
  }
}
