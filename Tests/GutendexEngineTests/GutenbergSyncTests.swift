import Foundation
import Gutendex
import GutendexServer
import Testing

@testable import GutendexEngine
@testable import TestSupport

/// `CatalogueSync` reading Project Gutenberg's small files from a loopback site laid out as
/// PG's: removals from a newer catalogue list (but not of a book that arrived after the list
/// was made, nor any from a list that lacks too many), a 429 whose wait is too long, and a
/// file that is not what PG publishes.
@Suite(.serialized)
struct GutenbergSyncTests {
  struct Directory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pg-sync-\(UUID().uuidString)", isDirectory: true)
    var files: LocalCatalogueFiles { LocalCatalogueFiles(dataDirectory: url) }
    func cleanUp() { try? FileManager.default.removeItem(at: url) }
  }

  static func sync(_ site: GutenbergSiteFixture, _ directory: Directory) -> CatalogueSync {
    var sync = CatalogueSync(
      client: GutendexClient(
        server: site.url, transport: CurlTransport(), timeout: .seconds(120)),
      files: directory.files)
    sync.gutenberg = GutenbergPolicy(
      site: GutenbergSite(base: site.url), pause: .zero, maxRetryAfter: .seconds(5))
    sync.walksServer = false
    return sync
  }

  @Test func aNewerListRemovesWhatPGRemovedButNotWhatArrivedSince() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let site = try await GutenbergSiteFixture(
      directory: directory.url.appendingPathComponent("site"))
    let snapshot = try SyncFixture.embeddedIDs()
    let fresh = try SyncFixture.newBooks(1, firstID: snapshot.last! + 1, seed: 9)
    let freshID = try Book.decode(from: fresh[0]).id
    try site.publishRecords(fresh)
    let listMade = Date().addingTimeInterval(-60)
    try await site.publishCSV(ids: snapshot, made: listMade, version: 1)
    site.publishRSS(ids: [freshID], built: Date(), version: 1)
    let sync = Self.sync(site, directory)
    let first = await sync.run(holdings: [])
    #expect(first.run.result == .ok && first.run.added == 1, "\(first.run)")

    // A week on, a list made before the new book arrived here: it lacks that book (kept, it
    // is newer than the list) and two the snapshot has (removed, and held ones marked).
    let gone = [snapshot[5], snapshot[500]]
    try await site.publishCSV(
      ids: snapshot.filter { !gone.contains($0) }, made: listMade.addingTimeInterval(1),
      version: 2)
    site.publishRSS(ids: [], built: Date().addingTimeInterval(8 * 86_400), version: 2)
    let second = await sync.run(holdings: [gone[1], 84])
    #expect(second.run.result == .ok, "\(second.run)")
    #expect(second.run.removedIDs == gone.sorted(), "\(second.run)")
    #expect(second.missing == [gone[1]], "\(second.missing)")
    let engine = try directory.files.openEngine()
    #expect(engine.bookJSON(id: gone[0]) == nil && engine.bookJSON(id: gone[1]) == nil)
    #expect(engine.bookJSON(id: freshID) != nil, "the book that arrived after the list is kept")
    #expect(engine.bookCount == snapshot.count + 1 - 2)

    // A list that lacks half the catalogue is not PG's catalogue shrinking: nothing removed.
    try await site.publishCSV(
      ids: Array(snapshot.prefix(snapshot.count / 2)), made: Date(), version: 3)
    site.publishRSS(ids: [], built: Date().addingTimeInterval(20 * 86_400), version: 3)
    let third = await sync.run(holdings: [])
    #expect(third.run.removed == 0, "\(third.run)")
    #expect(third.run.note?.contains("too many for a complete list to drop") == true)
    #expect(try directory.files.openEngine().bookCount == snapshot.count + 1 - 2)
    await site.stop()
  }

  @Test func aRetryAfterLongerThanTheLimitEndsTheSyncEarly() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let site = try await GutenbergSiteFixture(
      directory: directory.url.appendingPathComponent("site"))
    site.publishRSS(ids: [], built: Date(), version: 1)
    site.server.faults.statusScript = [.rateLimited(retryAfter: "3600")]
    let outcome = await Self.sync(site, directory).run(holdings: [])
    #expect(outcome.run.cause == .rateLimited, "\(outcome.run)")
    #expect(site.requests == ["/cache/epub/feeds/today.rss"], "asked again: \(site.requests)")
    await site.stop()
  }

  @Test func aPageThatIsNotTodayRSSIsBadDataAndChangesNothing() async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let site = try await GutenbergSiteFixture(
      directory: directory.url.appendingPathComponent("site"))
    site.server.serve(
      ServedFile(content: .bytes(Data("<html>maintenance</html>".utf8))),
      at: "/cache/epub/feeds/today.rss")
    let outcome = await Self.sync(site, directory).run(holdings: [])
    #expect(outcome.run.cause == .badData, "\(outcome.run)")
    #expect(outcome.run.note?.contains("today.rss: not an RSS document") == true)
    #expect(try directory.files.readState()?.gutenberg == nil, "validators kept for a bad file")
    await site.stop()
  }
  /// A catalogue list that is missing or is not PG's (a 404, an HTML page where the gzip file
  /// should be) on a first sync: bad data in one note naming the file, no crash, and the
  /// list's own request counted under its source.
  @Test(arguments: ["missing", "not gzip"])
  func aCatalogueListThatIsMissingOrNotPGsIsOneNote(fault: String) async throws {
    let directory = Directory()
    defer { directory.cleanUp() }
    let site = try await GutenbergSiteFixture(
      directory: directory.url.appendingPathComponent("site"))
    site.publishRSS(ids: [], built: Date(), version: 1)
    if fault == "not gzip" {
      site.server.serve(
        ServedFile(content: .bytes(Data("<html>maintenance</html>".utf8))),
        at: "/cache/epub/feeds/pg_catalog.csv.gz")
    }
    let outcome = await Self.sync(site, directory).run(holdings: [])
    #expect(outcome.run.cause == .badData, "\(outcome.run)")
    #expect(outcome.run.note?.contains("pg_catalog.csv.gz") == true, "\(outcome.run)")
    #expect(site.requests.contains("/cache/epub/feeds/pg_catalog.csv.gz"), "\(site.requests)")
    let csv = outcome.run.sources?.first { $0.source == .csv }
    #expect(csv?.requests == 1, "\(outcome.run.sources)")
    await site.stop()
  }
}
