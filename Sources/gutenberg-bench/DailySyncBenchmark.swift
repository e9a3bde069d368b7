import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import TestSupport

/// Figure 21 (issue 38): `gutenberg sync` from Project Gutenberg's own small files, against a
/// loopback site laid out as PG's (no Gutendex server): a daily sync whose `today.rss` names
/// 20 new and 10 changed books, and a weekly catch-up through `pg_catalog.csv.gz` with 300
/// changes the RSS never named.
@MainActor
enum DailySyncBenchmark {
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let runs = context.count(5, minimum: 3)
    Report.progress("figure 21: a site laid out as Project Gutenberg's")
    let site = try await GutenbergSiteFixture(
      directory: context.scratch.appendingPathComponent("pg-site"))
    defer { Task { await site.stop() } }
    let snapshotIDs = context.engine.bookIDs
    let firstNew = (snapshotIDs.last ?? 80_000) + 1
    let fresh = try SyncFixture.newBooks(30 + 300 * runs, firstID: firstNew, seed: 20)
    let freshIDs = try fresh.map { try Book.decode(from: $0).id }
    try site.publishRecords(fresh)
    let changedIDs = Array(snapshotIDs.enumerated().filter { $0.offset % 997 == 5 }.prefix(10))
      .map(\.element)
    try site.publishRecords(
      try changedIDs.map { id in
        var object =
          try JSONSerialization.jsonObject(with: context.engine.bookJSON(id: id) ?? Data())
          as? [String: Any] ?? [:]
        object["title"] = (object["title"] as? String ?? "") + ": Revised"
        return try JSONSerialization.data(withJSONObject: object)
      })
    let output = context.scratch.appendingPathComponent("daily-sync.txt").path
    var environment = BenchRun.cleanEnvironment
    environment["GUTENBERG_PG_URL"] = site.url.absoluteString
    environment["GUTENBERG_FEED_MAX_AGE"] = "never"
    // The pause between records is the real one (half a second): it costs wall time, not CPU.
    func gutenberg(_ arguments: [String], data: URL) async throws -> BenchRun.Outcome {
      let outcome = try await BenchRun(
        executable: context.binaries.gutenberg, arguments: arguments + ["--data-dir", data.path],
        output: output, environment: environment
      ).run(timeout: .seconds(600))
      guard outcome.exitStatus == 0 else {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        throw BenchError("gutenberg \(arguments.joined(separator: " ")) failed: \(text)")
      }
      return outcome
    }

    var onePageCPU = Samples()
    var dailyRequests = Samples()
    var dailyBytes = Samples()
    var dailyCPU = Samples()
    var dailyPeak = Samples()
    var dailySeconds = Samples()
    var weeklyRequests = Samples()
    var weeklyBytes = Samples()
    var sameDayRequests = Samples()
    let day: TimeInterval = 86_400
    Report.progress("figure 21: \(runs) daily syncs of 30 books and weekly ones of 300")
    for run in 0..<runs {
      let data = try context.dataDirectory("daily-\(run)")
      let start = Date().addingTimeInterval(-3600)
      try await site.publishCSV(ids: snapshotIDs, made: start, version: 100 + run)
      site.publishRSS(ids: [], built: start, version: 100 * run + 1)
      let page = try await gutenberg(
        ["list", "--source", "server", "--server", site.url.absoluteString], data: data)
      onePageCPU.append(page.cpuSeconds)
      _ = try await gutenberg(["sync"], data: data)

      // The next day: 20 new and 10 changed.
      let newToday = Array(freshIDs[0..<20])
      site.publishRSS(ids: newToday + changedIDs, built: start + day, version: 100 * run + 2)
      var requests = site.server.requestCount
      var bytes = site.server.bodyBytesSent
      let daily = try await gutenberg(["sync"], data: data)
      dailyRequests.append(Double(site.server.requestCount - requests))
      dailyBytes.append(Double(site.server.bodyBytesSent - bytes))
      dailyCPU.append(daily.cpuSeconds)
      dailyPeak.append(daily.peakRSS)
      dailySeconds.append(daily.seconds)
      requests = site.server.requestCount
      _ = try await gutenberg(["sync"], data: data)
      sameDayRequests.append(Double(site.server.requestCount - requests))

      // A week later: the catalogue list has 300 books the RSS never named.
      let weekly = Array(freshIDs[(30 + 300 * run)..<(30 + 300 * (run + 1))])
      try await site.publishCSV(
        ids: snapshotIDs + newToday + weekly, made: Date(), version: 200 + run)
      site.publishRSS(ids: [], built: start + 8 * day, version: 100 * run + 3)
      requests = site.server.requestCount
      bytes = site.server.bodyBytesSent
      _ = try await gutenberg(["sync"], data: data)
      weeklyRequests.append(Double(site.server.requestCount - requests))
      weeklyBytes.append(Double(site.server.bodyBytesSent - bytes))
    }
    let helloRSS = try await context.helloPeaks()
    return [
      ResultRow(
        figure: "21. daily sync (PG files): 30 books, requests", unit: .count,
        samples: dailyRequests, baselineName: "books named", baseline: Samples([30]),
        target: .atMost(35), note: "today.rss, then one record per book"),
      ResultRow(
        figure: "21. daily sync (PG files): 30 books, bytes", unit: .bytes, samples: dailyBytes,
        baselineName: "1 MB", baseline: Samples([1_000_000]), target: .atMost(1_000_000),
        note: String(format: "%.1f s with the 0.5 s pause", dailySeconds.median)),
      ResultRow(
        figure: "21. daily sync (PG files): 30 books, CPU", unit: .seconds, samples: dailyCPU,
        baselineName: "one page, fresh process (CPU)", baseline: onePageCPU,
        target: .atMost(0.3 + onePageCPU.median),
        note: String(
          format: "%.0f ms beyond a fresh process's one page (target: 300 ms beyond)",
          (dailyCPU.median - onePageCPU.median) * 1000)),
      ResultRow(
        figure: "21. daily sync (PG files): 30 books, peak RSS", unit: .bytes, samples: dailyPeak,
        baselineName: "bench-hello", baseline: helloRSS, target: .atMost(64 * 1_048_576)),
      ResultRow(
        figure: "21. daily sync (PG files): same day again, requests", unit: .count,
        samples: sameDayRequests, baselineName: "today.rss", baseline: Samples([1]),
        target: .atMost(3), note: "one 304"),
      ResultRow(
        figure: "21. weekly catch-up (CSV): 300 books, requests", unit: .count,
        samples: weeklyRequests, baselineName: "books new", baseline: Samples([300]),
        target: .atMost(310), note: "today.rss, pg_catalog.csv.gz, one record per book"),
      ResultRow(
        figure: "21. weekly catch-up (CSV): 300 books, bytes", unit: .bytes,
        samples: weeklyBytes, baselineName: "8 MB", baseline: Samples([8_000_000]),
        target: .atMost(8_000_000), note: "the list of 76,696 ids is most of it"),
    ]
  }
}
