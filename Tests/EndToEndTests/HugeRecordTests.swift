import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// A feed record at the record limit (8 MiB) whose title is blanks (issue 35, class 2: the
/// reader was quadratic in them, about 9 h at this size, and Ctrl-C was ignored meanwhile)
/// refreshes the catalogue within a few times the CPU a record of 8 MiB of words takes, measured
/// in the same test on the same machine. The catalogue is a small one (`GUTENBERG_INDEX`), so
/// the record's reading, not the rebuild of 77,000 books, is what is timed.
@Suite(.serialized, .ownThread)
struct HugeRecordTests {
  /// The title's size: the record with its markup stays under the 8 MiB limit.
  static let titleSize = (8 << 20) - (64 << 10)

  static func title(_ unit: String) -> String {
    String(String(repeating: unit, count: titleSize / unit.utf8.count + 1).prefix(titleSize))
  }

  /// Refreshes a fresh data directory from a feed of the fixture books plus book 90020 titled
  /// `title`; the run and the CPU time the refresh used.
  static func refresh(title: String) async throws -> (Gutenberg.Run, Duration) {
    let lines = try FixtureFiles.data("books.jsonl")
    let small = try GutendexEngine(jsonLines: lines)
    let api = LoopbackServer(handler: small, port: 0)
    let apiURL = try await api.start()
    let feed = LoopbackServer(handler: small, port: 0)
    let feedURL = try await feed.start().appendingPathComponent("rdf-files.tar.bz2")
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let index = app.root.appendingPathComponent("small.gdxindex")
    try CatalogueSnapshot.make(fromJSONLines: lines).write(to: index)
    app.extraEnvironment["GUTENBERG_INDEX"] = index.path
    let book84 = try #require(small.bookJSON(id: 84))
    var object = try #require(try JSONSerialization.jsonObject(with: book84) as? [String: Any])
    object["id"] = 90020
    object["title"] = title
    let record = try FeedGenerator.record(try JSONSerialization.data(withJSONObject: object))
    let file = app.root.appendingPathComponent("feed.tar.bz2")
    try FeedGenerator.writeFeed(
      books: Array(lines.split(separator: 0x0A).prefix(20).map { Data($0) }),
      extra: [(90020, record)], to: file.path)
    feed.serve(ServedFile(content: .file(file)), at: "/rdf-files.tar.bz2")
    // The child's own CPU time: a quadratic reading shows in it whatever the machine's load
    // (wall time, even with starved time left out, moved fivefold under a loaded full suite).
    let (run, took) = try await app.runMeasuringCPU(
      [
        "sync", "--feed", "--server", apiURL.absoluteString, "--feed-url",
        feedURL.absoluteString,
      ], timeout: .seconds(600))
    await api.stop()
    await feed.stop()
    let show = try await app.run(["show", "90020", "--json", "--source", "local"])
    #expect(show.status == 0, "\(show.err)")
    return (run, took)
  }

  @Test func eightMiBOfBlanksReadsAboutAsFastAsEightMiBOfWords() async throws {
    let (words, baseline) = try await Self.refresh(title: Self.title("Lorem ipsum dolor sit. "))
    #expect(words.endedByItself && words.status == 0, "\(words)")
    for unit in [" ", " \t\t"] {
      let (blanks, took) = try await Self.refresh(title: Self.title(unit))
      #expect(blanks.endedByItself && blanks.status == 0, "\(unit.debugDescription): \(blanks)")
      #expect(
        took <= baseline * 4 + .seconds(5),
        "\(unit.debugDescription): \(took) against \(baseline) for words")
    }
  }
}
