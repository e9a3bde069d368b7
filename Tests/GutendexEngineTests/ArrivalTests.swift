import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// What syncs record about the books they add (`catalogue/arrivals.tsv`), and the release
/// dates the feed reader keeps for them.
@Suite("Arrivals")
struct ArrivalTests {
  static func files() throws -> (LocalCatalogueFiles, URL) {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("arrivals-\(UUID().uuidString)", isDirectory: true)
    let files = LocalCatalogueFiles(dataDirectory: root)
    try files.createDirectory()
    return (files, root)
  }

  @Test func arrivalsAreKeptOncePerBookTheLatestWinning() throws {
    let (files, root) = try Self.files()
    defer { try? FileManager.default.removeItem(at: root) }
    let first = Date(timeIntervalSince1970: 1_700_000_000)
    let second = first.addingTimeInterval(3600)
    try files.recordArrivals([3, 1, 2], at: first, issued: [1: "2025-09-14"])
    try files.recordArrivals([2, 4], at: second)
    let arrivals = files.readArrivals()
    #expect(arrivals.map(\.id) == [1, 3, 2, 4])
    #expect(arrivals.map(\.added) == [first, first, second, second])
    #expect(arrivals.first?.issued == "2025-09-14")
    #expect(arrivals.dropFirst().allSatisfy { $0.issued == nil })
  }

  @Test func aDamagedLineIsSkippedAndTheRestRead() throws {
    let (files, root) = try Self.files()
    defer { try? FileManager.default.removeItem(at: root) }
    let text = "7\t1700000000\t2025-01-02\nnot a line\n8\tsoon\t\n9\t1700000100\t2025-99\n10\t17"
    try Data(text.utf8).write(to: files.arrivalsURL)
    let arrivals = files.readArrivals()
    #expect(arrivals.map(\.id) == [10, 7, 9])
    #expect(arrivals.first { $0.id == 7 }?.issued == "2025-01-02")
    // A date that is not YYYY-MM-DD is no release date.
    #expect(arrivals.first { $0.id == 9 }?.issued == nil)
  }

  @Test func theFileKeepsTheNewestArrivalsOnly() throws {
    let (files, root) = try Self.files()
    defer { try? FileManager.default.removeItem(at: root) }
    let limit = LocalCatalogueFiles.arrivalLimit
    let old = Date(timeIntervalSince1970: 1_600_000_000)
    try files.recordArrivals(Array(1...limit), at: old)
    try files.recordArrivals([limit + 1, limit + 2], at: old.addingTimeInterval(60))
    let arrivals = files.readArrivals()
    #expect(arrivals.count == limit)
    #expect(arrivals.first?.id == 3 && arrivals.last?.id == limit + 2)
  }

  @Test func theFeedReaderKeepsEachRecordsReleaseDate() async throws {
    let books = try FeedReaderTests.fixtureBooks().prefix(5)
    let undated = FeedReaderTests.handWritten.replacingOccurrences(
      of: "<pgterms:ebook rdf:about=\"ebooks/90001\">",
      with: """
        <pgterms:ebook rdf:about="ebooks/90001">
            <dcterms:issued rdf:datatype="http://www.w3.org/2001/XMLSchema#date">None</dcterms:issued>
        """)
    #expect(undated != FeedReaderTests.handWritten)
    let feed = try FeedReaderTests.feed(books: Array(books), extra: [(90001, undated)])
    let reading = try await FeedReader.read(HTTPBody(feed), into: [BookRecord]())
    let ids = try books.map { try Book.decode(from: $0).id }
    #expect(reading.records.count == ids.count + 1)
    for id in ids {
      #expect(reading.issued[id] == FeedGenerator.issued(for: id), "book \(id)")
    }
    #expect(reading.issued[90001] == nil)
  }
}
