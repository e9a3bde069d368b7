import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// The embedded catalogue, loaded once for every test that needs it.
let embedded = Result { try EmbeddedCatalogue.load() }

/// The real catalogue the snapshot is derived from; CI has it next to the checkout.
let catalogueSource = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appending(path: "shared/gutendex/catalogue-2025-08.jsonl.gz")

@Suite("Embedded catalogue")
struct SnapshotTests {
  @Test func loadsEveryBook() throws {
    let engine = try embedded.get()
    #expect(engine.bookCount == 76_696)
    #expect(EmbeddedCatalogue.bookCount == engine.bookCount)
    #expect(EmbeddedCatalogue.snapshotDate == "2025-08")
    #expect(!EmbeddedCatalogue.hasSummaries)
  }

  @Test(
    "spot checks equal the server's bytes with summaries emptied", arguments: [84, 1342, 11, 1727])
  func spotCheck(id: Int) throws {
    let engine = try embedded.get()
    let line = try #require(
      try Fixture.lines().first { $0.starts(with: Data(#"{"id":\#(id),"#.utf8)) })
    #expect(engine.bookJSON(id: id) == line)
    let response = try get(engine, "/books/\(id)/")
    #expect(response.body == line)
    #expect(text(response.body).contains(#""summaries":[]"#))
  }

  @Test func searchesTheWholeCatalogue() throws {
    let engine = try embedded.get()
    let body = try ListBody(get(engine, "/books/?search=frankenstein%20shelley&languages=en"))
    #expect(body.ids.contains(84))
    let french = try ListBody(get(engine, "/books/?languages=fr"))
    #expect(french.count > 3000)
    #expect(french.next == "http://engine.test/books/?languages=fr&page=2")
  }

  @Test func snapshotRoundTripsTheFixtureBooks() throws {
    let lines = try Fixture.lines()
    let source = Data(lines.map { text($0) }.joined(separator: "\n").utf8)
    let snapshot = try CatalogueSnapshot.make(fromJSONLines: source)
    let engine = try CatalogueSnapshot.engine(from: snapshot)
    #expect(engine.bookCount == lines.count)
    for line in lines {
      let id = try #require(
        (JSONSerialization.jsonObject(with: line) as? [String: Any])?["id"] as? Int)
      #expect(engine.bookJSON(id: id) == line, "book \(id)")
    }
    // The snapshot path builds its index from the string table: it must answer like the other.
    let direct = try Fixture.engine()
    for (query, _) in FilterTests.cases {
      #expect(try allIDs(engine, query).ids == allIDs(direct, query).ids, "\(query)")
    }
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: snapshot.prefix(40)) }
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: Data("nope".utf8)) }
  }

  @Test func emptyingSummariesIsTextual() throws {
    let line = Data(
      #"{"id":1,"title":"a","authors":[],"summaries":["x]\"y",""],"editors":[]}"#.utf8)
    #expect(
      text(try CatalogueSnapshot.emptyingSummaries(line))
        == #"{"id":1,"title":"a","authors":[],"summaries":[],"editors":[]}"#)
  }

  @Test(
    "every book of the real catalogue round-trips",
    .enabled(if: FileManager.default.fileExists(atPath: catalogueSource.path)))
  func fullRoundTrip() async throws {
    let engine = try embedded.get()
    let plain = try CatalogueSnapshot.gunzip(Data(contentsOf: catalogueSource))
    let lines = plain.split(separator: UInt8(ascii: "\n"))
    #expect(lines.count == 76_696)
    // Two halves in parallel: the debug build is slow at byte-by-byte work. Each on a thread
    // of its own, not the cooperative pool, which the suites running alongside need.
    let half = lines.count / 2
    let mismatches = try await withThrowingTaskGroup(of: [Int].self) { group in
      for range in [0..<half, half..<lines.count] {
        group.addTask(executorPreference: OwnThread.executor()) {
          var bad: [Int] = []
          for index in range {
            let line = Data(lines[lines.startIndex + index])
            let expected = try CatalogueSnapshot.emptyingSummaries(line)
            let digits = line.dropFirst(6).prefix { (0x30...0x39).contains($0) }
            let id = Int(String(decoding: digits, as: UTF8.self)) ?? -1
            if engine.bookJSON(id: id) != expected { bad.append(id) }
          }
          return bad
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
  }
}
