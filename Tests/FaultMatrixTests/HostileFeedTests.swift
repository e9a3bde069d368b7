import Foundation
import GutendexEngine
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// A bzip2 bomb in the feed (an entry of gigabytes of zeros, a few hundred bytes compressed):
/// the refresh's memory does not grow with it (each block that expands past its buffer is
/// checked, then decoded again a buffer at a time), and Ctrl-C while it decompresses (the whole
/// feed already received, so no network read is left to notice) ends the refresh within a
/// second, the previous catalogue kept. The catalogue is a small one (`GUTENBERG_INDEX`), so
/// the bomb, not the rebuild of 77,000 books, is what is measured.
@Suite(.serialized, .ownThread)
struct HostileFeedTests {
  /// 100 MiB of zeros, compressed once (one bzip2 stream of a few hundred bytes).
  static let zeros = 100 << 20
  static let zeroStream: Data = (try? Bzip2Writer.compress(Data(count: zeros))) ?? Data()

  /// A feed of the fixture books after an entry of `streams` × 100 MiB of zeros: a stream for
  /// the entry's header, the zeros' stream that many times, a stream for the records (one
  /// bzip2 file of several streams, as pbzip2 writes).
  static func bombFeed(streams: Int, at file: URL) throws {
    var head = TarWriter()
    head.addHeader("cache/epub/zeros.bin", size: streams * zeros)
    var records = TarWriter()
    for line in try FixtureFiles.data("books.jsonl").split(separator: 0x0A).prefix(20) {
      let id = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
      let book = try #require(id["id"] as? Int)
      records.add(
        "cache/epub/\(book)/pg\(book).rdf", Data(try FeedGenerator.record(Data(line)).utf8))
    }
    #expect(!zeroStream.isEmpty && zeroStream.count < 4_096)
    var feed = try Bzip2Writer.compress(head.bytes)
    for _ in 0..<streams { feed.append(zeroStream) }
    feed.append(try Bzip2Writer.compress(records.finish()))
    try feed.write(to: file)
  }

  struct Setup {
    var app: Gutenberg
    var api: LoopbackServer
    var feed: LoopbackServer
    var arguments: [String]
    var size: Int

    func stop() async {
      await api.stop()
      await feed.stop()
    }
  }

  /// A data directory on a small catalogue, an API that has nothing new, and the bomb feed.
  static func setUp(streams: Int) async throws -> Setup {
    let lines = try FixtureFiles.data("books.jsonl")
    let small = try GutendexEngine(jsonLines: lines)
    let api = LoopbackServer(handler: small, port: 0)
    let apiURL = try await api.start()
    let feed = LoopbackServer(handler: small, port: 0)
    let feedURL = try await feed.start().appendingPathComponent("rdf-files.tar.bz2")
    var app = try Gutenberg()
    let index = app.root.appendingPathComponent("small.gdxindex")
    try CatalogueSnapshot.make(fromJSONLines: lines).write(to: index)
    app.extraEnvironment["GUTENBERG_INDEX"] = index.path
    let file = app.root.appendingPathComponent("bomb.tar.bz2")
    try bombFeed(streams: streams, at: file)
    feed.serve(ServedFile(content: .file(file)), at: "/rdf-files.tar.bz2")
    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
    return Setup(
      app: app, api: api, feed: feed,
      arguments: [
        "sync", "--feed", "--json", "--server", apiURL.absoluteString, "--feed-url",
        feedURL.absoluteString,
      ], size: size)
  }

  @Test func aBzip2BombsMemoryDoesNotGrowWithIt() async throws {
    var peaks: [Int: Int] = [:]
    for streams in [2, 10] {
      let setup = try await Self.setUp(streams: streams)
      defer { setup.app.cleanUp() }
      let (run, peak) = try await setup.app.runMeasuringPeak(setup.arguments)
      await setup.stop()
      #expect(run.endedByItself && run.status == 0, "\(streams) × 100 MiB: \(run)")
      let report = try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
      let feed = report?["feed"] as? [String: Any]
      #expect(feed?["result"] as? String == "refreshed", "\(run)")
      #expect(feed?["books"] as? Int == 20, "\(run)")
      peaks[streams] = peak
    }
    // 1 GB of zeros against 200 MB: the same few buffers hold each block however many come.
    let small = try #require(peaks[2])
    let large = try #require(peaks[10])
    #expect(
      large <= small + 8 << 10, "peak \(large) KiB for 1 GB of zeros, \(small) KiB for 200 MB")
  }

  @Test func ctrlCWhileABombDecompressesEndsTheRefreshWithinASecond() async throws {
    // 8 GB of zeros: tens of seconds of decompression after the last byte has arrived.
    let setup = try await Self.setUp(streams: 80)
    defer { setup.app.cleanUp() }
    let child = try setup.app.start(setup.arguments)
    try await Awaiting.condition("the whole feed to be sent", within: .seconds(120)) {
      setup.feed.bodyBytesSent >= setup.size
    }
    // Into the zeros: a second of CPU after the feed was received.
    let received = Self.cpuSeconds(child.pid)
    try await Awaiting.condition("the bomb to be decompressing", within: .seconds(120)) {
      Self.cpuSeconds(child.pid) >= received + 1
    }
    let (exit, took) = await StarvedDeadline.counted { () async -> ChildProcess.Exit in
      child.kill(SIGINT)
      return await child.wait(timeout: .seconds(120))
    }
    await setup.stop()
    let err = String(decoding: child.stderr, as: UTF8.self)
    let out = String(decoding: child.stdout, as: UTF8.self)
    #expect(exit.code == 130, "\(exit): \(err) \(out)")
    #expect(took <= .seconds(1), "the refresh took \(took) to end after Ctrl-C")
    let report = try JSONSerialization.jsonObject(with: child.stdout) as? [String: Any]
    let feed = report?["feed"] as? [String: Any]
    #expect(feed?["result"] as? String == "failed", "stderr: \(err) stdout: \(out)")
    #expect(feed?["note"] as? String == "the feed: stopped by Ctrl-C", "\(out)")
    // The catalogue is the one before: the small index's books, none from the feed.
    #expect(report?["books"] as? Int == report?["base_books"] as? Int, "\(out)")
    let show = try await setup.app.run(["show", "84", "--json", "--source", "local"])
    #expect(show.status == 0, "\(show)")
  }

  /// The CPU seconds (user and system) process `pid` has used, 0 once it is gone.
  static func cpuSeconds(_ pid: pid_t) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
