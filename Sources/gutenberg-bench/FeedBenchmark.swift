import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import TestSupport

/// Figure 17 (issue 25): `gutenberg sync --feed` of the whole catalogue from Project
/// Gutenberg's feed (generated in PG's RDF shape from the real 2025-08 catalogue when the
/// shared data is there, else from the embedded index; bzip2 tar served on loopback), against
/// `bzip2 -dc FEED > /dev/null` in the same run; its peak RSS; an unchanged feed (one 304),
/// against the bench-hello floor and against the same sync with the feed not due (the API walk
/// alone), so that what the 304 itself costs shows. Issue 36: the same refresh of feeds twice
/// and four times the catalogue (its records copied under new ids), whose peak must stay
/// where the catalogue's own is.
@MainActor
enum FeedBenchmark {
  /// The real catalogue next to the checkout (summaries included), as the tests find it.
  static let realCatalogue = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appending(path: "shared/gutendex/catalogue-2025-08.jsonl.gz")

  /// The books the feeds are written from (the real catalogue when the shared data is there,
  /// else the embedded index), and which it was.
  static func catalogueBooks(_ context: BenchContext) throws -> (books: [Data], origin: String) {
    if let data = try? Data(contentsOf: realCatalogue) {
      return (
        try CatalogueSnapshot.gunzip(data).split(separator: 0x0A).map { Data($0) },
        "the real 2025-08 catalogue, summaries included"
      )
    }
    return (
      context.engine.bookIDs.compactMap { context.engine.bookJSON(id: $0) },
      "the embedded index (no summaries)"
    )
  }

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let runs = context.count(3, minimum: 2)
    let (books, origin) = try catalogueBooks(context)
    // GUTENBERG_BENCH_FEED keeps the generated feed at that path and reuses it on the next
    // run (writing it takes a minute; profiling the refresh by hand wants the same file).
    let kept = ProcessInfo.processInfo.environment["GUTENBERG_BENCH_FEED"].flatMap {
      $0.isEmpty ? nil : URL(fileURLWithPath: $0)
    }
    let feed = kept ?? context.scratch.appendingPathComponent("rdf-files.tar.bz2")
    if kept == nil || !FileManager.default.fileExists(atPath: feed.path) {
      Report.progress("figure 17: writing a feed of \(books.count) books from \(origin)")
      try FeedGenerator.writeFeed(books: books, to: feed.path)
    } else {
      Report.progress("figure 17: reusing the feed at \(feed.path) (GUTENBERG_BENCH_FEED)")
    }
    let feedSize = (try FileManager.default.attributesOfItem(atPath: feed.path)[.size] as? Int) ?? 0
    let server = LoopbackServer(handler: context.engine)
    let base = try await server.start()
    server.serve(ServedFile(content: .file(feed)), at: "/rdf-files.tar.bz2")
    let feedURL = base.appendingPathComponent("rdf-files.tar.bz2").absoluteString
    let bzip2 = try SystemTool.path("bzip2")
    let output = context.scratch.appendingPathComponent("feed-sync.json").path

    var decompress = Samples()
    var refresh = Samples()
    var peak = Samples()
    var unchanged = Samples()
    var unchangedRequests = Samples()
    var walk = Samples()
    var hello = Samples()
    for run in 0..<runs {
      Report.progress("figure 17: run \(run + 1) of \(runs) (bzip2 -dc, then sync --feed)")
      let baseline = try await BenchRun(executable: bzip2, arguments: ["-dc", feed.path])
        .run(timeout: .seconds(600))
      guard baseline.exitStatus == 0 else { throw BenchError("bzip2 -dc failed") }
      decompress.append(baseline.seconds)
      let data = try context.dataDirectory("feed-\(run)")
      let arguments = [
        "sync", "--feed", "--json", "--feed-url", feedURL, "--server", context.url.absoluteString,
        "--data-dir", data.path,
      ]
      let sync = try await BenchRun(
        executable: context.binaries.gutenberg, arguments: arguments, output: output
      ).run(timeout: .seconds(900))
      let report = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: output)))
      let read = ((report as? [String: Any])?["feed"] as? [String: Any])?["books"] as? Int
      guard sync.exitStatus == 0, read == books.count else {
        throw BenchError("sync --feed read \(read ?? -1) of \(books.count) books: \(report)")
      }
      refresh.append(sync.seconds)
      peak.append(sync.peakRSS)
      let before = server.fileRangeHeaders.count
      let again = try await BenchRun(
        executable: context.binaries.gutenberg, arguments: arguments, output: output
      ).run(timeout: .seconds(300))
      guard again.exitStatus == 0 else { throw BenchError("the unchanged feed sync failed") }
      unchanged.append(again.seconds)
      unchangedRequests.append(Double(server.fileRangeHeaders.count - before))
      // The same sync with the feed not due (refreshed moments ago): the API walk alone, so
      // the difference is what the 304 costs.
      let walkOnly = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: arguments.filter { $0 != "--feed" }, output: output
      ).run(timeout: .seconds(300))
      guard walkOnly.exitStatus == 0,
        server.fileRangeHeaders.count - before == Int(unchangedRequests.values.last ?? 0)
      else { throw BenchError("the sync without the feed failed or asked for the feed") }
      walk.append(walkOnly.seconds)
      hello.append(
        try await BenchRun(executable: context.binaries.hello, arguments: []).run().seconds)
    }
    let helloRSS = try await context.helloPeaks()
    let megabytes = Double(feedSize) / 1_048_576
    var scaled: [ResultRow] = []
    for copies in [1, 3] {
      scaled += try await Self.refresh(
        context, books: books, copies: copies, kept: kept, server: server, base: base,
        onePeak: peak)
    }
    await server.stop()
    return [
      ResultRow(
        figure: "17. feed refresh, \(books.count) books", unit: .seconds, samples: refresh,
        baselineName: "bzip2 -dc FEED > /dev/null", baseline: decompress,
        target: .ratioAtMost(1.5),
        note: String(format: "a %.1f MB feed from %@; sync --feed end to end", megabytes, origin)),
      ResultRow(
        figure: "17. feed refresh, peak RSS", unit: .bytes, samples: peak,
        baselineName: "bench-hello", baseline: helloRSS, target: .atMost(128 * 1_048_576)),
      ResultRow(
        figure: "17. unchanged feed (304)", unit: .seconds, samples: unchanged,
        baselineName: "bench-hello", baseline: hello, target: .atMost(0.2),
        note: String(
          format: "%.0f feed request(s) per unchanged sync (plus one API page)",
          unchangedRequests.median)),
      ResultRow(
        figure: "17. unchanged feed: the 304 alone", unit: .seconds, samples: unchanged,
        baselineName: "same sync, feed not due", baseline: walk, target: .none,
        note: String(
          format: "the 304 adds %.0f ms to the sync's API walk (medians)",
          (unchanged.median - walk.median) * 1000)),
    ] + scaled
  }

  /// The refresh of a feed of `books` and `copies` copies of each under new ids, from a fresh
  /// data directory (so every copy is a new book): its time against `bzip2 -dc` of that feed,
  /// its peak against the catalogue's own (`onePeak`).
  static func refresh(
    _ context: BenchContext, books: [Data], copies: Int, kept: URL?, server: LoopbackServer,
    base: URL, onePeak: Samples
  ) async throws -> [ResultRow] {
    let scale = copies + 1
    let name = "rdf-files-\(scale)x.tar.bz2"
    let feed =
      kept.map {
        $0.deletingLastPathComponent().appendingPathComponent("\(scale)x-" + $0.lastPathComponent)
      }
      ?? context.scratch.appendingPathComponent(name)
    if kept == nil || !FileManager.default.fileExists(atPath: feed.path) {
      Report.progress(
        "figure 17: writing a feed of \(scale)x the catalogue (\(books.count * scale) books)")
      let sorted = try books.map { (try Book.decode(from: $0).id, $0) }.sorted { $0.0 < $1.0 }
        .map(\.1)
      try FeedGenerator.writeFeed(books: sorted, copies: copies, to: feed.path)
    }
    server.serve(ServedFile(content: .file(feed)), at: "/" + name)
    let feedURL = base.appendingPathComponent(name).absoluteString
    let bzip2 = try SystemTool.path("bzip2")
    let output = context.scratch.appendingPathComponent("feed-sync-\(scale)x.json").path
    var decompress = Samples()
    var refresh = Samples()
    var peak = Samples()
    let runs = context.count(2, minimum: 1)
    for run in 0..<runs {
      Report.progress("figure 17, \(scale)x: run \(run + 1) of \(runs)")
      let baseline = try await BenchRun(executable: bzip2, arguments: ["-dc", feed.path])
        .run(timeout: .seconds(1800))
      guard baseline.exitStatus == 0 else { throw BenchError("bzip2 -dc failed") }
      decompress.append(baseline.seconds)
      let data = try context.dataDirectory("feed-\(scale)x-\(run)")
      let sync = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: [
          "sync", "--feed", "--json", "--feed-url", feedURL, "--server",
          context.url.absoluteString, "--data-dir", data.path,
        ], output: output
      ).run(timeout: .seconds(3600))
      let report = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: output)))
      let read = ((report as? [String: Any])?["feed"] as? [String: Any])?["books"] as? Int
      guard sync.exitStatus == 0, read == books.count * scale else {
        throw BenchError(
          "sync --feed read \(read ?? -1) of \(books.count * scale) books: \(report)")
      }
      refresh.append(sync.seconds)
      peak.append(sync.peakRSS)
      try? FileManager.default.removeItem(at: data)
    }
    return [
      ResultRow(
        figure: "17. feed refresh, \(scale)x (\(books.count * scale) books)", unit: .seconds,
        samples: refresh, baselineName: "bzip2 -dc FEED > /dev/null", baseline: decompress,
        target: .none, note: "the catalogue's records and \(copies) copies of each under new ids"),
      ResultRow(
        figure: "17. feed refresh, \(scale)x, peak RSS", unit: .bytes, samples: peak,
        baselineName: "the 1x refresh's peak", baseline: onePeak,
        target: .atMost(128 * 1_048_576)),
    ]
  }
}
