import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import Testing

@testable import TestSupport

/// `gutenberg sync --feed` from Project Gutenberg's feed (generated in PG's RDF shape, served on
/// loopback) of a newer catalogue: new books, and changed titles, formats, subjects, summaries
/// and download counts. Afterwards `gutendex-server --data-dir` answers like a Gutendex server
/// loaded with that catalogue (the books the feed lacks kept, as the real server keeps them).
@Suite(.serialized)
struct FeedSyncTests {
  /// Lists sorted as Python sorts them (code points: UTF-8 byte order), as the server does.
  static func pythonSorted(_ strings: [String]) -> [String] {
    strings.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
  }

  /// `json` with its lists in the server's order.
  static func normalised(_ json: Data) throws -> Data {
    var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    for key in ["subjects", "bookshelves", "languages", "summaries"] {
      object[key] = pythonSorted(Array(Set(object[key] as? [String] ?? [])))
    }
    return try JSONSerialization.data(withJSONObject: object)
  }

  /// A book of the snapshot as a newer catalogue has it: a revised title, a summary, a new
  /// subject and format, and a download count that moved (up or down).
  static func changed(_ json: Data, number: Int) throws -> Data {
    var object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    let id = try #require(object["id"] as? Int)
    let downloads = object["download_count"] as? Int ?? 0
    object["download_count"] = number % 3 == 0 ? downloads / 2 : downloads + 7 * number + 1
    if number % 2 == 0 {
      object["title"] = (object["title"] as? String ?? "") + ": Revised Edition"
    }
    object["summaries"] = ["A summary from the feed of book \(id)."]
    object["subjects"] = (object["subjects"] as? [String] ?? []) + ["Feed -- Testing"]
    var formats = object["formats"] as? [String: String] ?? [:]
    formats["application/pdf"] = "https://www.gutenberg.org/files/\(id)/\(id)-pdf.pdf"
    object["formats"] = formats
    return try normalised(try JSONSerialization.data(withJSONObject: object))
  }

  struct Catalogue {
    var feedBooks: [Data]
    var reference: GutendexEngine
    var firstNewID: Int
    var changedIDs: [Int]
  }

  /// The newer catalogue: every 25th snapshot book changed, 300 new books.
  static func newerCatalogue() throws -> Catalogue {
    let embedded = try SyncFixture.embeddedBooks()
    let firstID = try SyncFixture.embeddedMaxID() + 1
    var changed: [Data] = []
    for (number, json) in embedded.enumerated() where number % 25 == 0 {
      changed.append(try Self.changed(json, number: number))
    }
    let added = try SyncFixture.newBooks(300, firstID: firstID, seed: 3).map(normalised)
    let feed = changed + added
    let ids = try changed.map { try Book.decode(from: $0).id }
    return Catalogue(
      feedBooks: feed, reference: try SyncFixture.server(embedded: embedded, upserting: feed),
      firstNewID: firstID, changedIDs: ids)
  }

  @Test func aFeedSyncServesTheNewerCatalogueLikeTheServer() async throws {
    let catalogue = try Self.newerCatalogue()
    let upstream = LoopbackServer(handler: catalogue.reference, port: 0)
    let upstreamURL = try await upstream.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let feedFile = app.root.appendingPathComponent("rdf-files.tar.bz2")
    try FeedGenerator.writeFeed(books: catalogue.feedBooks, to: feedFile.path)
    upstream.serve(ServedFile(content: .file(feedFile)), at: "/feeds/rdf-files.tar.bz2")
    let feedURL = upstreamURL.appendingPathComponent("feeds/rdf-files.tar.bz2").absoluteString

    let sync = try await app.run(
      ["sync", "--feed", "--json", "--server", upstreamURL.absoluteString, "--feed-url", feedURL],
      timeout: .seconds(300))
    #expect(sync.status == 0, "\(sync)")
    let report = try #require(try JSONSerialization.jsonObject(with: sync.stdout) as? [String: Any])
    let feed = try #require(report["feed"] as? [String: Any], "\(report)")
    #expect(feed["result"] as? String == "refreshed", "\(report)")
    #expect(feed["books"] as? Int == catalogue.feedBooks.count, "\(report)")
    #expect(report["books"] as? Int == catalogue.reference.bookCount, "\(report)")
    // The books the feed added are new, dated by the feed's release date (`dcterms:issued`).
    #expect((report["new"] as? [String: Any])?["books"] as? Int == 300, "\(report)")
    let new = try await app.run(["new", "--json", "--all"])
    let listed = try #require(
      try JSONSerialization.jsonObject(with: new.stdout) as? [String: Any], "\(new)")
    let results = try #require(listed["results"] as? [[String: Any]], "\(new)")
    #expect(results.count == 300, "\(new)")
    #expect(
      results.allSatisfy {
        let id = ($0["book"] as? [String: Any])?["id"] as? Int ?? 0
        return id >= catalogue.firstNewID
          && $0["issued"] as? String == FeedGenerator.issued(for: id)
      }, "\(new)")

    // A second sync: the feed has not changed, so it costs one 304.
    let again = try await app.run(
      ["sync", "--feed", "--json", "--server", upstreamURL.absoluteString, "--feed-url", feedURL],
      timeout: .seconds(300))
    #expect(again.status == 0, "\(again)")
    let second = try #require(
      try JSONSerialization.jsonObject(with: again.stdout) as? [String: Any])
    let secondFeed = try #require(second["feed"] as? [String: Any], "\(second)")
    #expect(secondFeed["result"] as? String == "unchanged", "\(second)")
    #expect(secondFeed["requests"] as? Int == 1, "\(second)")
    await upstream.stop()

    // A changed book, offline: its summary and new title, as the server has it.
    let changedID = catalogue.changedIDs[2]
    let show = try await app.run(["show", String(changedID), "--json", "--source", "local"])
    #expect(show.status == 0, "\(show)")
    let expected = try #require(catalogue.reference.bookJSON(id: changedID))
    #expect(show.out.trimmingCharacters(in: .newlines) == String(decoding: expected, as: UTF8.self))

    // The synced catalogue, served by the binary, against the reference server.
    let binary = URL(fileURLWithPath: Gutenberg.binary).deletingLastPathComponent()
      .appendingPathComponent("gutendex-server").path
    let local = try ChildProcess(
      executable: binary, arguments: ["--port", "0", "--data-dir", app.dataDirectory.path],
      environment: ["PATH": "/usr/bin:/bin"])
    let listening = await local.waitForOutput(timeout: .seconds(120)) { $0.hasSuffix("\n") }
    #expect(listening, "gutendex-server did not say where it listens within 120 s")
    let localURL = try #require(
      URL(string: local.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
    let reference = LoopbackServer(handler: catalogue.reference, port: 0)
    let referenceURL = try await reference.start()
    var generator = SeededGenerator(seed: 25)
    let held = Array(catalogue.changedIDs.prefix(10))
    var targets = QueryMaker(firstID: catalogue.firstNewID, held: held)
      .targets(200, using: &generator)
    // The popular order is every download count's: its first pages, and details of changed books.
    targets += ["/books/", "/books/?page=2", "/books/?languages=fr", "/books/?sort=popular&page=5"]
    targets += catalogue.changedIDs.prefix(20).map { "/books/\($0)/" }
    let transport = CurlTransport()
    // The answers are compared, not their speed (a loaded machine starves the child server).
    let patience = Duration.seconds(180)
    var differences: [String] = []
    for target in targets {
      let expected = try await transport.send(
        HTTPRequest(
          url: try #require(URL(string: referenceURL.absoluteString + target)), timeout: patience))
      let actual = try await transport.send(
        HTTPRequest(
          url: try #require(URL(string: localURL.absoluteString + target)), timeout: patience))
      let expectedBody = String(decoding: expected.body, as: UTF8.self)
        .replacingOccurrences(of: referenceURL.absoluteString, with: "http://HOST")
      let actualBody = String(decoding: actual.body, as: UTF8.self)
        .replacingOccurrences(of: localURL.absoluteString, with: "http://HOST")
      if expected.status != actual.status || expectedBody != actualBody {
        differences.append(
          "\(target): \(expected.status) vs \(actual.status)\n  \(expectedBody.prefix(300))\n"
            + "  \(actualBody.prefix(300))")
      }
    }
    await reference.stop()
    local.kill(SIGTERM)
    _ = await local.wait(timeout: .seconds(30))
    #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(5))")
  }
}
