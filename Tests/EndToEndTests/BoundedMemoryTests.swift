import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import Testing

@testable import TestSupport

/// Issue 36: the feed refresh and the sync write their index through bounded buffers and
/// sorted spill files, so the binary's peak memory (GNU `time`'s maximum resident set, the
/// binary's own) does not grow with what they write: a refresh that writes 5,000 books more
/// peaks where one that writes 40,000 more does, and so do syncs of 500 and 5,000 new books.
/// (Before, a refresh held about 0.7 KiB a book and a sync every pending book and record: the
/// differences were some 25 and 60 MiB.)
@Suite(.serialized, .ownThread)
struct BoundedMemoryTests {
  /// How far apart the two peaks may be.
  static let tolerance = 16 << 10

  /// `count` new books for a feed: the embedded catalogue's, copied under new ids (their file
  /// URLs renamed), so the new index holds the snapshot and `count` books more, with the
  /// variety of real ones.
  static func writeFeed(of count: Int, from embedded: [Data], to path: String) throws {
    try FeedGenerator.writeArchive(
      count: count,
      record: { number in
        let book = try FeedGenerator.copy(
          embedded[number % embedded.count], number: 1 + number / embedded.count)
        let id = try Book.decode(from: book).id
        return (id, Data(try FeedGenerator.record(book).utf8))
      }, to: path)
  }

  @Test func aFeedRefreshPeaksAlikeFor5000And40000Books() async throws {
    let embedded = try SyncFixture.embeddedBooks()
    let server = LoopbackServer(handler: try EmbeddedCatalogue.load(), port: 0)
    let url = try await server.start()
    var peaks: [Int: Int] = [:]
    for count in [5_000, 40_000] {
      let app = try Gutenberg()
      defer { app.cleanUp() }
      let feed = app.root.appendingPathComponent("rdf-files.tar.bz2")
      try Self.writeFeed(of: count, from: embedded, to: feed.path)
      server.serve(ServedFile(content: .file(feed)), at: "/feed-\(count).tar.bz2")
      let (run, peak) = try await app.runMeasuringPeak(
        [
          "sync", "--feed", "--json", "--server", url.absoluteString, "--feed-url",
          url.appendingPathComponent("feed-\(count).tar.bz2").absoluteString,
        ], timeout: .seconds(1800))
      #expect(run.status == 0, "\(run)")
      let report = try #require(
        try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run)")
      let read = (report["feed"] as? [String: Any])?["books"] as? Int
      #expect(read == count, "\(report)")
      #expect(report["books"] as? Int == embedded.count + count, "\(report)")
      peaks[count] = peak
    }
    await server.stop()
    let small = try #require(peaks[5_000])
    let large = try #require(peaks[40_000])
    // The arrivals of a refresh were written from a dictionary of their dates, a set of their
    // ids and the whole text at once: some 14 MiB more at the end of a refresh of 40,000 new
    // books than of 5,000 (the peaks were 16.2-18.0 MiB apart). Written as a stream, 2.3 MiB.
    #expect(
      abs(large - small) < Self.tolerance,
      "refresh peaks: \(small) KiB for 5,000 books, \(large) KiB for 40,000")
  }

  @Test func aSyncPeaksAlikeFor500And5000NewBooks() async throws {
    let embedded = try SyncFixture.embeddedBooks()
    let firstID = try SyncFixture.embeddedMaxID() + 1
    var peaks: [Int: Int] = [:]
    for count in [500, 5_000] {
      let engine = try SyncFixture.server(
        embedded: embedded, upserting: SyncFixture.newBooks(count, firstID: firstID, seed: 5))
      let server = LoopbackServer(handler: engine, port: 0)
      let url = try await server.start()
      let app = try Gutenberg()
      defer { app.cleanUp() }
      let (run, peak) = try await app.runMeasuringPeak(
        ["sync", "--json", "--server", url.absoluteString], timeout: .seconds(1800))
      await server.stop()
      #expect(run.status == 0, "\(run)")
      let report = try #require(
        try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run)")
      #expect(report["added"] as? Int == count, "\(report)")
      // Every new book answers from the delta the sync wrote.
      let last = try await app.run(
        ["show", String(firstID + count - 1), "--json", "--source", "local"])
      #expect(last.status == 0, "\(last)")
      peaks[count] = peak
    }
    let small = try #require(peaks[500])
    let large = try #require(peaks[5_000])
    #expect(
      abs(large - small) < Self.tolerance,
      "sync peaks: \(small) KiB for 500 new books, \(large) KiB for 5,000")
  }
}
