import Foundation
import GutendexEngine
import GutendexServer
import TestSupport

/// Figure 14 (issue 20): `gutenberg sync` against a loopback server holding the embedded
/// catalogue plus 1,000 new books; a cold local query afterwards; local-first against a
/// server 300 ms away.
@MainActor
enum SyncBenchmark {
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let runs = context.count(5, minimum: 3)
    Report.progress("figure 14: building a server of the snapshot plus 1,000 new books")
    let newBooks = try SyncFixture.newBooks(
      1000, firstID: (context.engine.bookIDs.last ?? 80_000) + 1)
    // The server holds every book in one index (the client's data dir gets a delta).
    let merged = try context.engine.upsert.mergedIndex(upserting: newBooks)
    let engine = try CatalogueSnapshot.engine(from: merged.index)
    let server = LoopbackServer(handler: engine)
    let url = try await server.start()
    let output = context.scratch.appendingPathComponent("sync.txt").path
    let binary = context.binaries.gutenberg

    func gutenberg(_ arguments: [String], data: URL) async throws -> BenchRun.Outcome {
      let outcome = try await BenchRun(
        executable: binary, arguments: arguments + ["--data-dir", data.path], output: output
      ).run(timeout: .seconds(300))
      guard outcome.exitStatus == 0 else {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        throw BenchError("gutenberg \(arguments.joined(separator: " ")) failed: \(text)")
      }
      return outcome
    }

    // Baseline: one page from the same server in a fresh process (what any request costs).
    var onePage = Samples()
    var onePageCPU = Samples()
    var syncCPU = Samples()
    var syncTimes = Samples()
    var syncRequests = Samples()
    var nothingTimes = Samples()
    var nothingRequests = Samples()
    var peak = Samples()
    var coldLocal = Samples()
    var coldSnapshot = Samples()
    var hello = Samples()
    let snapshotOnly = try context.dataDirectory("sync-none")
    let held = ["84", "1342", "2701", "11", "1661"]
    Report.progress("figure 14: \(runs) syncs of 1,000 new books, each from the snapshot")
    for run in 0..<runs {
      let data = try context.dataDirectory("sync-\(run)")
      _ = try await gutenberg(["favorites", "add", "--source", "local"] + held, data: data)
      let page = try await gutenberg(
        ["list", "--source", "server", "--server", url.absoluteString], data: data)
      onePage.append(page.seconds)
      onePageCPU.append(page.cpuSeconds)
      var before = server.requestCount
      let sync = try await gutenberg(["sync", "--server", url.absoluteString], data: data)
      syncTimes.append(sync.seconds)
      syncCPU.append(sync.cpuSeconds)
      syncRequests.append(Double(server.requestCount - before))
      peak.append(sync.peakRSS)
      before = server.requestCount
      let again = try await gutenberg(["sync", "--server", url.absoluteString], data: data)
      nothingTimes.append(again.seconds)
      nothingRequests.append(Double(server.requestCount - before))
      // Cold local queries over the synced catalogue, next to bench-hello.
      for _ in 0..<3 {
        let helloRun = try await BenchRun(executable: context.binaries.hello, arguments: [])
          .run()
        hello.append(helloRun.seconds)
        let query = try await gutenberg(
          ["list", "--source", "local", "--search", "dickens"], data: data)
        coldLocal.append(query.seconds)
        let snapshot = try await gutenberg(
          ["list", "--source", "local", "--search", "dickens"], data: snapshotOnly)
        coldSnapshot.append(snapshot.seconds)
      }
    }
    let lastData = context.scratch.appendingPathComponent("sync-\(runs - 1)", isDirectory: true)
    let queryRSS = try await peakRSS(
      context, ["list", "--source", "local", "--search", "dickens", "--data-dir", lastData.path])
    let helloRSS = try await context.helloPeaks()

    // Local first against a server 300 ms away: the same search, fresh sync, each way.
    Report.progress("figure 14: local-first vs server-first, 300 ms server")
    server.faults = FaultPlan(latency: .milliseconds(300))
    var localFirst = Samples()
    var serverFirst = Samples()
    for _ in 0..<context.count(7, minimum: 3) {
      let before = server.requestCount
      let local = try await gutenberg(
        ["list", "--search", "dickens", "--server", url.absoluteString], data: lastData)
      guard server.requestCount == before else {
        throw BenchError("local-first list asked the server")
      }
      localFirst.append(local.seconds)
      let asked = try await gutenberg(
        ["list", "--search", "dickens", "--source", "server", "--server", url.absoluteString],
        data: lastData)
      serverFirst.append(asked.seconds)
    }
    await server.stop()
    let large = try await tenThousand(context, onePeak: peak, hello: helloRSS)

    return [
      ResultRow(
        figure: "14. sync: 1,000 new books, requests", unit: .count, samples: syncRequests,
        baselineName: "pages of new books", baseline: Samples([ceil(1000 / 32)]),
        target: .atMost(34), note: "plus one ids= batch for the 5 favourites"),
      ResultRow(
        figure: "14. sync: 1,000 new books, zero latency", unit: .seconds, samples: syncTimes,
        baselineName: "one page, fresh process", baseline: onePage, target: .atMost(2),
        note: String(format: "peak RSS of the sync %.1f MiB", peak.median / 1_048_576)),
      ResultRow(
        figure: "14. sync: 1,000 new books, CPU", unit: .seconds, samples: syncCPU,
        baselineName: "one page, fresh process (CPU)", baseline: onePageCPU,
        target: .atMost(0.3 + onePageCPU.median),
        note: "0.3 s beyond a fresh process's one page: a delta is written, the base is not"),
      ResultRow(
        figure: "14. sync: 1,000 new books, peak RSS", unit: .bytes, samples: peak,
        baselineName: "bench-hello", baseline: helloRSS, target: .atMost(64 * 1_048_576),
        note: "the sync process"),
      ResultRow(
        figure: "14. sync: nothing new, requests", unit: .count, samples: nothingRequests,
        baselineName: "ids= batches (5 held)", baseline: Samples([1]), target: .atMost(3),
        note: String(format: "%.2f s", nothingTimes.median)),
      ResultRow(
        figure: "14. cold local query after the sync", unit: .seconds, samples: coldLocal,
        baselineName: "bench-hello", baseline: hello,
        target: .atMost(10 * hello.median), note: "list --source local --search dickens"),
      ResultRow(
        figure: "14. cold local query: synced vs snapshot", unit: .seconds, samples: coldLocal,
        baselineName: "same query, never synced", baseline: coldSnapshot,
        target: .atMost(1.1 * coldSnapshot.median),
        note: "base + 1,000 delta books, merged per query, vs the bare base"),
      ResultRow(
        figure: "14. peak RSS, cold local query after sync", unit: .bytes,
        samples: Samples([queryRSS]), baselineName: "bench-hello", baseline: helloRSS,
        target: .atMost(48 * 1_048_576)),
      ResultRow(
        figure: "14. list --search dickens, local first", unit: .seconds, samples: localFirst,
        baselineName: "server first, 300 ms", baseline: serverFirst, target: .none,
        note: "fresh sync; --source auto asks nothing"),
    ] + large
  }

  /// Issue 36: an API sync of 10,000 new books (313 pages), whose peak must stay where a sync
  /// of 1,000 peaks: the pending books are read one at a time into the new delta.
  static func tenThousand(
    _ context: BenchContext, onePeak: Samples, hello: Samples
  ) async throws -> [ResultRow] {
    Report.progress("figure 14: a server of the snapshot plus 10,000 new books")
    let newBooks = try SyncFixture.newBooks(
      10_000, firstID: (context.engine.highestID ?? 80_000) + 1, seed: 7)
    let merged = try context.engine.upsert.mergedIndex(upserting: newBooks)
    let server = LoopbackServer(handler: try CatalogueSnapshot.engine(from: merged.index))
    let url = try await server.start()
    let output = context.scratch.appendingPathComponent("sync-10k.txt").path
    var peak = Samples()
    var seconds = Samples()
    for run in 0..<context.count(2, minimum: 1) {
      let data = try context.dataDirectory("sync-10k-\(run)")
      let sync = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: ["sync", "--json", "--server", url.absoluteString, "--data-dir", data.path],
        output: output
      ).run(timeout: .seconds(900))
      let report =
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
      guard sync.exitStatus == 0, report?["added"] as? Int == 10_000 else {
        throw BenchError("the sync of 10,000 new books failed: \(report ?? [:])")
      }
      peak.append(sync.peakRSS)
      seconds.append(sync.seconds)
    }
    await server.stop()
    return [
      ResultRow(
        figure: "14. sync: 10,000 new books, peak RSS", unit: .bytes, samples: peak,
        baselineName: "the 1,000-book sync's peak", baseline: onePeak,
        target: .atMost(64 * 1_048_576),
        note: String(
          format: "%.1f s each; bench-hello %.1f MiB", seconds.median, hello.median / 1_048_576))
    ]
  }

  /// A command's exact peak resident size, through `bench-hello --peak-rss`.
  static func peakRSS(_ context: BenchContext, _ arguments: [String]) async throws -> Double {
    let file = context.scratch.appendingPathComponent("sync-peak.txt").path
    let outcome = try await BenchRun(
      executable: context.binaries.hello,
      arguments: ["--peak-rss", file, context.binaries.gutenberg] + arguments
    ).run()
    let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    guard outcome.exitStatus == 0,
      let kibibytes = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw BenchError("peak RSS of the local query failed: \(outcome.exitStatus)") }
    return kibibytes * 1024
  }
}
