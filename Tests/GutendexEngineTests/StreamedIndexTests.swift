import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// The feed refresh's index builder (``StreamedIndex``: books spilled to a temporary file as
/// they come, the index written from it) makes the very bytes the in-memory builder
/// (`CatalogueSnapshot.make(records:keepingSummaries:)`) makes of the same books, and leaves
/// no file but the index behind.
@Suite("Streamed index")
struct StreamedIndexTests {
  /// A fresh empty directory, removed by the caller.
  static func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("streamed-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func names(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  /// The streamed index of `records`, given in the order given.
  static func streamed(_ records: [BookRecord], keepingSummaries: Bool) throws -> Data {
    let directory = try directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var index = try StreamedIndex(in: directory)
    defer { index.close() }
    for record in records { try index.add(record) }
    // Nothing but the index has a name: the temporary files were unlinked when created.
    #expect(try names(in: directory).isEmpty)
    let file = directory.appendingPathComponent("local.gdxindex")
    let count = try index.write(to: file, keepingSummaries: keepingSummaries)
    #expect(try names(in: directory) == ["local.gdxindex"])
    #expect(count == Set(records.map(\.id)).count)
    return try Data(contentsOf: file)
  }

  /// Books with summaries (the first 34 of the real catalogue) and the fixture catalogue.
  static func fixtureRecords() throws -> [BookRecord] {
    try GutendexEngine(books: FeedReaderTests.fixtureBooks()).allRecords()
  }

  @Test(arguments: [false, true])
  func theFixtureCatalogueInAnyOrderGivesTheSameBytes(keepingSummaries: Bool) throws {
    let records = try Self.fixtureRecords()
    #expect(records.count > 100)
    #expect(records.contains { !$0.summaries.isEmpty })
    let expected = try CatalogueSnapshot.make(records: records, keepingSummaries: keepingSummaries)
    var generator = SystemRandomNumberGenerator()
    let shuffled = records.shuffled(using: &generator)
    let streamed = try Self.streamed(shuffled, keepingSummaries: keepingSummaries)
    #expect(streamed.count == expected.count)
    #expect(streamed == expected)
  }

  @Test func aRepeatedBookKeepsItsLastCopy() throws {
    let records = try Self.fixtureRecords()
    var older = records[3]
    older.title = "An older title"
    older.downloadCount += 1000
    older.summaries = ["An older summary."]
    let expected = try CatalogueSnapshot.make(records: records, keepingSummaries: true)
    let streamed = try Self.streamed([older] + records, keepingSummaries: true)
    #expect(streamed == expected)
  }

  /// 5,000 books of the embedded catalogue: pools past 256 strings, lists two bytes wide.
  @Test func thousandsOfEmbeddedBooksGiveTheSameBytes() throws {
    let records = Array(try EmbeddedCatalogue.load().allRecords().suffix(5000))
    #expect(records.count == 5000)
    let expected = try CatalogueSnapshot.make(records: records, keepingSummaries: false)
    let streamed = try Self.streamed(records.reversed(), keepingSummaries: false)
    #expect(streamed == expected)
  }

  /// The generator's feed (every reader quirk), read into the streamed index as a sync does,
  /// against the same feed read into memory and indexed there.
  @Test func theFeedGeneratorsFeedGivesTheSameBytes() async throws {
    let feed = try FeedReaderTests.feed(
      books: try FeedReaderTests.fixtureBooks(), extra: [(90001, FeedReaderTests.handWritten)])
    let inMemory = try await FeedReader.read(HTTPBody(feed), into: [BookRecord]())
    #expect(inMemory.records.count > 100)
    let expected = try CatalogueSnapshot.make(records: inMemory.records, keepingSummaries: true)

    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let reading = try await FeedReader.read(HTTPBody(feed), into: try StreamedIndex(in: directory))
    var index = reading.records
    defer { index.close() }
    #expect(reading.count == inMemory.records.count)
    // The streamed index keeps the ids seen on disk (the reading holds none), in order.
    #expect(reading.seen.isEmpty)
    var seen: [Int] = []
    try index.forEachSeenID { seen.append($0) }
    #expect(seen == inMemory.seen.sorted())
    let file = directory.appendingPathComponent("local.gdxindex")
    try index.write(to: file, keepingSummaries: true)
    #expect(try Data(contentsOf: file) == expected)
  }

  /// A book the index cannot hold, met while writing: the error, and no file left at all.
  @Test func aFailedWriteLeavesNoFile() throws {
    var records = try Self.fixtureRecords()
    records[5].authors = [PersonRecord(name: "Nobody", birthYear: Int(Int32.min), deathYear: nil)]
    #expect(throws: EngineError.self) {
      try CatalogueSnapshot.make(records: records, keepingSummaries: true)
    }
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var index = try StreamedIndex(in: directory)
    defer { index.close() }
    for record in records { try index.add(record) }
    #expect(throws: EngineError.self) {
      try index.write(
        to: directory.appendingPathComponent("local.gdxindex"), keepingSummaries: true)
    }
    #expect(try Self.names(in: directory).isEmpty)
  }

  @Test func aSpilledBookReadsBackWhole() throws {
    for record in try Self.fixtureRecords() {
      let back = try BookRecord(spilled: record.spilled)
      #expect(back.json == record.json, "book \(record.id)")
      #expect(back.spilled == record.spilled, "book \(record.id)")
    }
    #expect(throws: EngineError.self) { try BookRecord(spilled: [0x05, 0x80]) }
  }
}
