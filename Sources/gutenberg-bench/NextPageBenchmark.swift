import Catalog
import Foundation
import Gutendex
import GutendexServer
import Terminal

/// Figure 1: from "next" to the page rendered, the server taking 300 ms a page, after the user
/// has read the current page for a second; prefetch on against prefetch off.
@MainActor
enum NextPageBenchmark {
  static let latency = Duration.milliseconds(300)
  static let reading = Duration.seconds(1)

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    context.server.faults = FaultPlan(latency: latency)
    defer { context.server.faults = FaultPlan() }
    let samples = context.count(12)
    Report.progress("figure 1: next page, prefetch on (\(samples) samples, ~1.0 s each)")
    let on = try await nextPages(context, prefetch: true, samples: samples)
    Report.progress("figure 1: next page, prefetch off (\(samples) samples, ~1.3 s each)")
    let off = try await nextPages(context, prefetch: false, samples: samples)

    Report.progress("figure 1: first (uncached) page")
    var first = Samples()
    var roundTrip = Samples()
    for run in 0..<context.count(6) {
      let directory = try context.dataDirectory("first-page-\(run)")
      let service = try await context.service(dataDirectory: directory)
      // The bare round trip of the same request, without view model or rendering.
      roundTrip.append(
        try await Stopwatch.time { _ = try await context.client().page(BookQuery()) })
      let sink = OutputSink()
      let session = InteractiveSession(service: service, output: sink.output, prefetch: false)
      first.append(await Stopwatch.time { await session.start() })
      try check(session, page: 1, sink: sink)
    }
    return [
      ResultRow(
        figure: "1. next page, 300 ms server, prefetch on", unit: .seconds, samples: on,
        baselineName: "prefetch off", baseline: off, target: .atMostAndRatio(0.010, 30)),
      ResultRow(
        figure: "1. first (uncached) page, 300 ms server", unit: .seconds, samples: first,
        baselineName: "bare HTTP round trip", baseline: roundTrip, target: .none),
    ]
  }

  /// Shows page 1, then `samples` times: read for a second, time "n" up to the screen drawn.
  private static func nextPages(_ context: BenchContext, prefetch: Bool, samples: Int)
    async throws -> Samples
  {
    let directory = try context.dataDirectory("next-page-\(prefetch ? "on" : "off")")
    let sink = OutputSink()
    let service = try await context.service(dataDirectory: directory)
    let session = InteractiveSession(service: service, output: sink.output, prefetch: prefetch)
    await session.start()
    try check(session, page: 1, sink: sink)
    var times = Samples()
    for sample in 1...samples {
      try await Task.sleep(for: reading)
      times.append(await Stopwatch.time { _ = await session.handle("n") })
      try check(session, page: sample + 1, sink: sink)
    }
    return times
  }

  /// The session shows page `page` with a full screen of books, drawn to the sink.
  static func check(_ session: InteractiveSession, page: Int, sink: OutputSink) throws {
    let state = session.browser.current
    guard state.page == page, state.items.count == BookQuery.pageSize, state.load.error == nil,
      sink.last.contains("page \(page) of ")
    else {
      throw BenchError(
        "expected page \(page) on screen, got page \(state.page) (\(state.load)): \(sink.last)")
    }
  }
}
