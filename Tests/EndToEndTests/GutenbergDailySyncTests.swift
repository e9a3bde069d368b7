import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import Testing

@testable import TestSupport

/// `gutenberg sync` kept current from Project Gutenberg's own small files, the real binary
/// against a loopback site laid out as PG's (`today.rss`, per-book records,
/// `pg_catalog.csv.gz`, the feed, each with validators, and the request log), with no Gutendex
/// server at all: the first sync makes the catalogue current, a daily one brings what
/// `today.rss` names, a second the same day costs one conditional request, a week later the
/// catalogue list brings what was missed and removes what PG removed (a favourite among them
/// kept and marked), a 429's `Retry-After` is waited for, and `new` lists what the user has
/// not seen until it has been shown.
@Suite(.serialized, .ownThread)
struct GutenbergDailySyncTests {
  /// A run's `--json` object.
  static func object(_ run: Gutenberg.Run) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run)")
  }

  /// The per-source counts of a run's JSON, by source name.
  static func sources(_ object: [String: Any]) -> [String: [String: Any]] {
    let list = object["sources"] as? [[String: Any]] ?? []
    return Dictionary(
      list.map { ($0["source"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// An embedded book as a newer record has it: a revised title and more downloads.
  static func revised(_ json: Data) throws -> Data {
    var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    object["title"] = (object["title"] as? String ?? "") + ": Revised"
    object["download_count"] = (object["download_count"] as? Int ?? 0) + 11
    return try JSONSerialization.data(withJSONObject: object)
  }

  @Test func dailySyncsFromProjectGutenbergsFilesAlone() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let site = try await GutenbergSiteFixture(directory: app.root.appendingPathComponent("site"))
    var pg = app
    pg.extraEnvironment = [
      "GUTENBERG_PG_URL": site.url.absoluteString, "GUTENBERG_PG_PAUSE": "0",
      // No Gutendex server: the default one is never asked by a sync from PG's files.
      "GUTENDEX_URL": "",
    ]
    let embedded = try EmbeddedCatalogue.load()
    let snapshotIDs = embedded.bookIDs
    let firstNew = try SyncFixture.embeddedMaxID() + 1
    let fresh = try SyncFixture.newBooks(30, firstID: firstNew, seed: 38)
    let freshIDs = try fresh.map { try Book.decode(from: $0).id }
    try site.publishRecords(fresh)
    // Changed books: every 997th of the snapshot with a revised record.
    let changedIDs = Array(snapshotIDs.enumerated().filter { $0.offset % 997 == 5 }.map(\.element))
      .prefix(12)
    try site.publishRecords(
      try changedIDs.map { try Self.revised(try #require(embedded.bookJSON(id: $0))) })
    let start = Date().addingTimeInterval(-7200)

    // 1. The first sync: the catalogue list (there was never a complete state) and the day's
    // RSS: 5 new books, 2 changed.
    try await site.publishCSV(
      ids: snapshotIDs + freshIDs.prefix(5), made: start, version: 1)
    site.publishRSS(
      ids: Array(freshIDs.prefix(5)) + changedIDs.prefix(2), built: start.addingTimeInterval(600),
      version: 1)
    let first = try await pg.run(["sync", "--json"], timeout: .seconds(300))
    #expect(first.status == 0, "\(first)")
    let firstReport = try Self.object(first)
    #expect(firstReport["added"] as? Int == 5, "\(firstReport)")
    #expect(firstReport["updated"] as? Int == 2, "\(firstReport)")
    #expect(firstReport["requests"] as? Int == 9, "\(firstReport)")
    #expect(Self.sources(firstReport)["pg_catalog.csv"]?["requests"] as? Int == 1, "\(firstReport)")
    #expect(!site.requests.contains { $0.hasPrefix("/books") }, "\(site.requests)")

    // 2. The next day: today.rss names 20 new and 10 changed books; nothing else is asked.
    let daily = Array(freshIDs[5..<25]) + changedIDs[2..<12]
    site.publishRSS(ids: daily, built: start.addingTimeInterval(600 + 86_400), version: 2)
    var mark = site.requests.count
    let second = try await pg.run(["sync", "--json"], timeout: .seconds(300))
    #expect(second.status == 0, "\(second)")
    let secondReport = try Self.object(second)
    #expect(secondReport["added"] as? Int == 20, "\(secondReport)")
    #expect(secondReport["updated"] as? Int == 10, "\(secondReport)")
    let dailyRequests = try #require(secondReport["requests"] as? Int)
    #expect(dailyRequests <= 35, "\(secondReport)")
    #expect(site.requests.count - mark == dailyRequests, "\(site.requests.suffix(40))")
    #expect(!site.requests.suffix(from: mark).contains { $0.contains("pg_catalog") })
    let records = Self.sources(secondReport)["records"]
    #expect(records?["added"] as? Int == 20 && records?["changed"] as? Int == 10, "\(secondReport)")
    // The summary line and the log say the same numbers as the JSON.
    let log = try await pg.run(["sync", "--log"])
    #expect(
      log.outLines.last?.contains("20 new books, 10 updated, \(dailyRequests) requests") == true,
      "\(log)")

    // 3. Again the same day, the first answer a 429 whose Retry-After is waited for: one
    // conditional request (304), sent twice.
    site.server.faults.statusScript = [.rateLimited(retryAfter: "1")]
    mark = site.requests.count
    let third = try await pg.run(["sync", "--json"], timeout: .seconds(300))
    #expect(third.status == 0, "\(third)")
    let thirdReport = try Self.object(third)
    #expect(thirdReport["added"] as? Int == 0, "\(thirdReport)")
    #expect((thirdReport["requests"] as? Int ?? 99) <= 3, "\(thirdReport)")
    #expect(
      Array(site.requests.suffix(from: mark))
        == ["/cache/epub/feeds/today.rss", "/cache/epub/feeds/today.rss"], "\(site.requests)")
    #expect(
      (thirdReport["seconds"] as? Double ?? 0) >= 1, "Retry-After 1 not waited: \(thirdReport)")
    #expect(Self.sources(thirdReport)["today.rss"]?["unchanged"] as? Bool == true)

    // 4. `new` still lists the 25 arrivals after that unchanged sync, and not once shown.
    let new = try await pg.run(["new", "--json", "--all"])
    let listed = try Self.object(new)
    #expect(listed["count"] as? Int == 25, "\(new)")
    let again = try await pg.run(["new"])
    #expect(again.status == 0 && again.out.isEmpty, "\(again)")
    #expect(again.err.contains("nothing new"), "\(again)")

    // 5. A week later: the catalogue list brings 3 books the RSS never named and lacks 3 books
    // PG removed, one of them a favourite; today.rss names 2 more.
    let removed = [snapshotIDs[100], snapshotIDs[2_000], snapshotIDs[30_000]]
    let add = try await pg.run(["favorites", "add", String(removed[1]), "--source", "embedded"])
    #expect(add.status == 0, "\(add)")
    let listedNow = snapshotIDs.filter { !removed.contains($0) } + freshIDs
    try await site.publishCSV(ids: listedNow, made: Date(), version: 2)
    site.publishRSS(
      ids: Array(freshIDs[28..<30]), built: start.addingTimeInterval(600 + 9 * 86_400), version: 3)
    let weekly = try await pg.run(["sync", "--json"], timeout: .seconds(300))
    #expect(weekly.status == 0, "\(weekly)")
    let weeklyReport = try Self.object(weekly)
    #expect(weeklyReport["added"] as? Int == 5, "\(weeklyReport)")
    #expect(weeklyReport["removed"] as? Int == 3, "\(weeklyReport)")
    #expect(weeklyReport["removed_ids"] as? [Int] == removed.sorted(), "\(weeklyReport)")
    #expect((weeklyReport["requests"] as? Int ?? 999) <= 310, "\(weeklyReport)")
    #expect((weeklyReport["bytes"] as? Int ?? .max) <= 8_000_000, "\(weeklyReport)")
    // (The favourite's own saved copy still answers `show`.)
    for id in [removed[0], removed[2]] {
      let show = try await pg.run(["show", String(id), "--source", "local"])
      #expect(show.status != 0, "book \(id) is still in the catalogue: \(show)")
    }
    // The favourite is kept, marked as no longer in the catalogue.
    let favourites = try await pg.run(["--source", "local"], input: "F\nq\n")
    #expect(favourites.out.contains("! no longer in the catalogue"), "\(favourites)")
    #expect(try await app.favoriteIDs() == [removed[1]])
    await site.stop()
  }

  /// A feed refresh (from the site's own feed) that adds 400 books and lacks 3 of the books
  /// held, one a favourite: every count says 400 new and 3 removed (the summary line, the
  /// arrivals line, `sync --log`, `status`, `sync --json`, `sync --log --json`), `new` lists the
  /// 400, and the favourite is kept and marked. The data directory's base is a small catalogue
  /// of 150 books (installed as a feed refresh would), so that a complete feed stays small.
  @Test func aFeedRefreshReportsOneSetOfCounts() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let site = try await GutenbergSiteFixture(directory: app.root.appendingPathComponent("site"))
    let held = Array(try SyncFixture.embeddedBooks().prefix(150))
    let base = app.root.appendingPathComponent("base.gdxindex")
    var lines = Data()
    for book in held { lines += book + Data([0x0A]) }
    try CatalogueSnapshot.make(fromJSONLines: lines).write(to: base)
    try LocalCatalogueFiles(dataDirectory: app.dataDirectory).installBase(indexAt: base)
    let heldIDs = try held.map { try Book.decode(from: $0).id }
    let removed = [heldIDs[10], heldIDs[70], heldIDs[140]]
    let fresh = try SyncFixture.newBooks(400, firstID: try SyncFixture.embeddedMaxID() + 1, seed: 4)
    // Seven books the catalogue holds come back with a revised title: 7 updated, the rest equal.
    let feed = try held.enumerated().filter { !removed.contains(heldIDs[$0.offset]) }.map {
      guard (20..<27).contains($0.offset) else { return $0.element }
      var book = try #require(try JSONSerialization.jsonObject(with: $0.element) as? [String: Any])
      book["title"] = "Revised \($0.offset)"
      return try JSONSerialization.data(withJSONObject: book)
    }
    try site.publishFeed(feed + fresh, made: Date(), version: 1)
    site.publishRSS(ids: [], built: Date(), version: 1)
    var pg = app
    pg.extraEnvironment = [
      "GUTENBERG_PG_URL": site.url.absoluteString, "GUTENBERG_PG_PAUSE": "0",
      "GUTENBERG_FEED_URL": "",
    ]
    let add = try await pg.run(["favorites", "add", String(removed[1]), "--source", "embedded"])
    #expect(add.status == 0, "\(add)")

    let sync = try await pg.run(["sync", "--feed"], timeout: .seconds(300))
    #expect(sync.status == 0, "\(sync)")
    let summary = "400 new books, 7 updated, 3 removed, 2 requests"
    #expect(sync.out.hasPrefix(summary), "\(sync)")
    #expect(sync.err.contains("\n400 new books, "), "\(sync)")
    let log = try await pg.run(["sync", "--log"])
    #expect(log.outLines.last?.contains("ok (full)  \(summary)") == true, "\(log)")
    let status = try await pg.run(["status", "--source", "local"])
    #expect(status.out.contains(summary), "\(status)")
    let logJSON = try await pg.run(["sync", "--log", "--json"])
    let runs = try #require(
      try JSONSerialization.jsonObject(with: logJSON.stdout) as? [[String: Any]], "\(logJSON)")
    let last = try #require(runs.last)
    #expect(last["added"] as? Int == 400, "\(last)")
    #expect(last["removed"] as? Int == 3, "\(last)")
    #expect(last["updated"] as? Int == 7, "\(last)")
    #expect(last["full"] as? Bool == true, "\(last)")
    let feedSource = Self.sources(last)["feed"]
    #expect(feedSource?["added"] as? Int == 400 && feedSource?["removed"] as? Int == 3, "\(last)")
    let new = try await pg.run(["new", "--json", "--all"])
    #expect(try Self.object(new)["count"] as? Int == 400, "\(new)")

    // Unchanged: the next sync asks for the feed no more (a month), and today.rss says 304.
    let again = try await pg.run(["sync", "--json"], timeout: .seconds(300))
    let second = try Self.object(again)
    #expect(second["added"] as? Int == 0 && second["removed"] as? Int == 0, "\(again)")
    #expect(second["requests"] as? Int == 1, "\(again)")
    let favourites = try await pg.run(["--source", "local"], input: "F\nq\n")
    #expect(favourites.out.contains("! no longer in the catalogue"), "\(favourites)")
    await site.stop()
  }
}
