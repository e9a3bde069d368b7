import Foundation
import Gutendex
import GutendexServer
import Synchronization
import Testing

@testable import GutendexEngine
@testable import TestSupport

/// `CatalogueSync` against a real loopback server holding the embedded catalogue plus new
/// releases: the descending walk, its stopping rule, holdings, resume and atomic replacement.
@Suite(.serialized)
struct CatalogueSyncTests {
  /// A temporary data directory, removed by `cleanUp`.
  struct Directory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sync-\(UUID().uuidString)", isDirectory: true)
    var files: LocalCatalogueFiles { LocalCatalogueFiles(dataDirectory: url) }
    func cleanUp() { try? FileManager.default.removeItem(at: url) }
  }

  /// One server for the suite: the embedded catalogue plus 1,000 new books (built once).
  static let world: (embedded: [Data], added: [Data], firstID: Int) = {
    let embedded = (try? SyncFixture.embeddedBooks()) ?? []
    let firstID = ((try? SyncFixture.embeddedMaxID()) ?? 80000) + 1
    let added = (try? SyncFixture.newBooks(1000, firstID: firstID)) ?? []
    return (embedded, added, firstID)
  }()

  static func client(_ url: URL) -> GutendexClient {
    // A whole-request deadline for each page: generous, a loaded machine is slow, not broken.
    GutendexClient(server: url, transport: CurlTransport(), timeout: .seconds(120))
  }

  @Test func aSyncFetchesNewBooksPageByPageThenStopsAtAWholeKnownPage() async throws {
    let world = Self.world
    #expect(world.added.count == 1000 && !world.embedded.isEmpty)
    let engine = try SyncFixture.server(embedded: world.embedded, upserting: world.added)
    let server = try await TestServer.start(engine: engine)
    let directory = Directory()
    defer { directory.cleanUp() }

    let sync = CatalogueSync(client: Self.client(server.url), files: directory.files)
    let first = await sync.run(holdings: [84, 1342])
    let second = await sync.run(holdings: [84, 1342])
    let requests = server.server.requests
    await server.stop()

    #expect(first.run.result == .ok, "\(first.run)")
    #expect(first.run.added == 1000)
    // 1,000 new books are 31.25 pages: 32 pages with new books, one whole page of known ones,
    // and one `ids=` batch for the two held books.
    #expect(first.run.requests <= 34, "\(first.run.requests) requests: \(requests)")
    #expect(first.held.map(\.id).sorted() == [84, 1342])
    #expect(second.run.result == .ok && second.run.added == 0 && second.run.updated == 0)
    #expect(second.run.requests <= 2 + 1, "\(second.run)")

    let local = try directory.files.openEngine()
    #expect(local.bookCount == world.embedded.count + 1000)
    #expect(local.keepsSummaries)
    // A synced book reads back exactly as the server serves it, summaries included.
    for id in [world.firstID, world.firstID + 500, world.firstID + 999] {
      #expect(local.bookJSON(id: id) == engine.bookJSON(id: id))
    }
    #expect(local.bookJSON(id: 84) == engine.bookJSON(id: 84))
    let state = try #require(try directory.files.readState())
    #expect(state.runs.count == 2 && state.lastSuccess != nil)
    #expect(state.syncedBooks >= 1000)
  }

  @Test func aWalkNeverStopsAtTheFirstKnownIDOnlyAtAWholeKnownPage() async throws {
    let world = Self.world
    // 40 new books: page 2 of the descending order holds 8 new books and 24 known ones, so the
    // first known id does not end the walk; page 3, wholly known, does.
    let added = Array(world.added.prefix(40))
    let engine = try SyncFixture.server(embedded: world.embedded, upserting: added)
    let server = try await TestServer.start(engine: engine)
    let directory = Directory()
    defer { directory.cleanUp() }

    let outcome = await CatalogueSync(client: Self.client(server.url), files: directory.files)
      .run(holdings: [])
    let pages = server.server.requests.count
    await server.stop()

    #expect(outcome.run.added == 40)
    #expect(pages == 3, "\(server.server.requests)")
  }

  @Test func aRateLimitEndsTheSyncEarlyAndTheNextResumesWithoutFetchingAgain() async throws {
    let world = Self.world
    let engine = try SyncFixture.server(embedded: world.embedded, upserting: world.added)
    let gate = RateLimitAfter(engine: engine, allowed: 10)
    let directory = Directory()
    defer { directory.cleanUp() }
    var client = GutendexClient(
      server: URL(string: "http://127.0.0.1")!, transport: gate, retry: .none)
    client.sleep = { _ in }

    let stopped = await CatalogueSync(client: client, files: directory.files).run(holdings: [])
    gate.allow(.max)
    let resumed = await CatalogueSync(client: client, files: directory.files).run(holdings: [])

    #expect(stopped.run.result == .partial, "\(stopped.run)")
    #expect(stopped.run.cause == .rateLimited)
    #expect(stopped.run.note?.contains("429") == true)
    #expect(stopped.run.added == 320)
    #expect(resumed.run.result == .ok, "\(resumed.run)")
    #expect(resumed.run.added == 680)
    // Page 1 again (whole known, now), then from page 11 on: pages 2-10 are not fetched again.
    let pages = gate.pages.dropFirst(11)
    #expect(!pages.contains(where: { (2...10).contains($0) }), "\(gate.pages)")
    #expect(try directory.files.openEngine().bookCount == world.embedded.count + 1000)
  }

  @Test func aResumeAfterNewReleasesShiftedThePagesStillFetchesEveryBook() async throws {
    let world = Self.world
    let more = try SyncFixture.newBooks(100, firstID: world.firstID + 1000, seed: 7)
    let before = try SyncFixture.server(embedded: world.embedded, upserting: world.added)
    let after = try SyncFixture.server(embedded: world.embedded, upserting: world.added + more)
    let gate = RateLimitAfter(engine: before, allowed: 10)
    let directory = Directory()
    defer { directory.cleanUp() }
    var client = GutendexClient(
      server: URL(string: "http://127.0.0.1")!, transport: gate, retry: .none)
    client.sleep = { _ in }

    let stopped = await CatalogueSync(client: client, files: directory.files).run(holdings: [])
    // 100 books released since: the saved page 11 now holds books the first run fetched.
    gate.serve(after)
    gate.allow(.max)
    let resumed = await CatalogueSync(client: client, files: directory.files).run(holdings: [])

    #expect(stopped.run.result == .partial && stopped.run.added == 320, "\(stopped.run)")
    #expect(resumed.run.result == .ok, "\(resumed.run)")
    #expect(resumed.run.added == 780, "\(resumed.run) \(gate.pages)")
    #expect(try directory.files.openEngine().bookCount == world.embedded.count + 1100)
  }

  @Test func heldBooksTheServerNoLongerHasAreMarkedNotDropped() async throws {
    let world = Self.world
    // The server lost book 84; the user holds it.
    let embedded = world.embedded.filter { !$0.starts(with: Data(#"{"id":84,"#.utf8)) }
    let engine = try SyncFixture.server(embedded: embedded, upserting: [])
    let server = try await TestServer.start(engine: engine)
    let directory = Directory()
    defer { directory.cleanUp() }

    let outcome = await CatalogueSync(client: Self.client(server.url), files: directory.files)
      .run(holdings: [84, 11])
    await server.stop()

    #expect(outcome.run.result == .ok, "\(outcome.run)")
    #expect(outcome.missing == [84])
    #expect(try directory.files.readState()?.missingIDs == [84])
    #expect(try directory.files.openEngine().bookJSON(id: 84) != nil)
  }

}

/// A transport that answers `allowed` requests from the engine, then 429s.
final class RateLimitAfter: Requestable {
  private let engine: Mutex<GutendexEngine>
  private let state: Mutex<(allowed: Int, pages: [Int])>

  init(engine: GutendexEngine, allowed: Int) {
    self.engine = Mutex(engine)
    state = Mutex((allowed, []))
  }

  /// Serves `engine` from now on (the server got new releases).
  func serve(_ engine: GutendexEngine) { self.engine.withLock { $0 = engine } }

  func allow(_ count: Int) { state.withLock { $0.allowed = count } }

  /// The `page` of each request answered or refused, in order.
  var pages: [Int] { state.withLock { $0.pages } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let page = GutendexDouble.parameter("page", of: request.url).flatMap { Int($0) } ?? 1
    let refused = state.withLock { state -> Bool in
      state.pages.append(page)
      guard state.allowed > 0 else { return true }
      state.allowed -= 1
      return false
    }
    if refused {
      return HTTPResponse(status: 429, headers: ["Retry-After": "1"], url: request.url)
    }
    return try await engine.withLock { $0 }.send(request)
  }
}
