import Foundation
import GutendexServer
import TestSupport

/// Figure 22 (issue 38): `gutenberg sync --feed` from a feed the size of Project Gutenberg's
/// real one (2.05 GB of records: the catalogue's books with as many files per record as PG's
/// carry, ``RealSizeFeed``; written into the scratch folder at bench time, never kept), against
/// `bzip2 -dc FEED > /dev/null` of the same file in the same run, interleaved; its peak RSS; its
/// CPU against bzip2's (what the parsing adds); and `lbzip2 -dc` (two threads) when installed,
/// for scale.
@MainActor
enum RealFeedBenchmark {
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let runs = context.count(3, minimum: 2)
    let (books, origin) = try FeedBenchmark.catalogueBooks(context)
    // GUTENBERG_BENCH_REAL_FEED keeps the generated feed at that path and reuses it on the
    // next run (writing it takes minutes).
    let kept = ProcessInfo.processInfo.environment["GUTENBERG_BENCH_REAL_FEED"].flatMap {
      $0.isEmpty ? nil : URL(fileURLWithPath: $0)
    }
    let feed = kept ?? context.scratch.appendingPathComponent("rdf-files-real.tar.bz2")
    var recordBytes = Double.nan
    if kept == nil || !FileManager.default.fileExists(atPath: feed.path) {
      Report.progress("figure 23: writing a real-size feed of \(books.count) books from \(origin)")
      recordBytes = Double(try RealSizeFeed.write(books: books, to: feed.path).bytes)
    } else {
      Report.progress("figure 23: reusing the feed at \(feed.path) (GUTENBERG_BENCH_REAL_FEED)")
    }
    let feedSize = (try FileManager.default.attributesOfItem(atPath: feed.path)[.size] as? Int) ?? 0
    let server = LoopbackServer(handler: context.engine)
    let base = try await server.start()
    server.serve(ServedFile(content: .file(feed)), at: "/rdf-files.tar.bz2")
    let feedURL = base.appendingPathComponent("rdf-files.tar.bz2").absoluteString
    let bzip2 = try SystemTool.path("bzip2")
    let lbzip2 = try? SystemTool.path("lbzip2")
    let output = context.scratch.appendingPathComponent("real-feed-sync.json").path

    var decompress = Samples()
    var decompressCPU = Samples()
    var parallel = Samples()
    var refresh = Samples()
    var refreshCPU = Samples()
    var peak = Samples()
    for run in 0..<runs {
      Report.progress("figure 23: run \(run + 1) of \(runs) (bzip2 -dc, sync --feed, lbzip2 -dc)")
      let baseline = try await BenchRun(executable: bzip2, arguments: ["-dc", feed.path])
        .run(timeout: .seconds(900))
      guard baseline.exitStatus == 0 else { throw BenchError("bzip2 -dc failed") }
      decompress.append(baseline.seconds)
      decompressCPU.append(baseline.cpuSeconds)
      let data = try context.dataDirectory("real-feed-\(run)")
      let sync = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: [
          "sync", "--feed", "--json", "--feed-url", feedURL, "--server",
          context.url.absoluteString, "--data-dir", data.path,
        ], output: output
      ).run(timeout: .seconds(1_200))
      let report = try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: output)))
      let read = ((report as? [String: Any])?["feed"] as? [String: Any])?["books"] as? Int
      guard sync.exitStatus == 0, read == books.count else {
        throw BenchError("sync --feed read \(read ?? -1) of \(books.count) books: \(report)")
      }
      refresh.append(sync.seconds)
      refreshCPU.append(sync.cpuSeconds)
      peak.append(sync.peakRSS)
      try? FileManager.default.removeItem(at: data)
      if let lbzip2 {
        let threads = try await BenchRun(
          executable: lbzip2, arguments: ["-dc", "-n", "2", feed.path]
        ).run(timeout: .seconds(900))
        if threads.exitStatus == 0 { parallel.append(threads.seconds) }
      }
    }
    await server.stop()
    let helloRSS = try await context.helloPeaks()
    let size = String(
      format: "a %.1f MB feed%@ from %@", Double(feedSize) / 1_000_000,
      recordBytes.isNaN ? "" : String(format: " (%.2f GB of records)", recordBytes / 1e9), origin)
    var rows = [
      ResultRow(
        figure: "23. real-size feed refresh, \(books.count) books", unit: .seconds,
        samples: refresh, baselineName: "bzip2 -dc FEED > /dev/null", baseline: decompress,
        target: .ratioAtMost(0.9), note: "\(size); sync --feed end to end"),
      ResultRow(
        figure: "23. real-size feed refresh, peak RSS", unit: .bytes, samples: peak,
        baselineName: "bench-hello", baseline: helloRSS, target: .atMost(128 * 1_048_576)),
      ResultRow(
        figure: "23. real-size feed refresh, CPU", unit: .seconds, samples: refreshCPU,
        baselineName: "bzip2 -dc, CPU", baseline: decompressCPU, target: .none,
        note: String(
          format: "the refresh's CPU beyond bzip2's own (parsing, tar, index): %.1f s (medians)",
          refreshCPU.median - decompressCPU.median)),
    ]
    if !parallel.values.isEmpty {
      rows.append(
        ResultRow(
          figure: "23. lbzip2 -dc -n 2 (for scale)", unit: .seconds, samples: parallel,
          baselineName: "bzip2 -dc FEED > /dev/null", baseline: decompress, target: .none))
    }
    return rows
  }
}
