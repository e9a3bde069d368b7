import Foundation
import TestSupport

/// Figure 15: a favourite added by another process appears in an open browser.
///
/// A `gutenberg` browser stays open on the embedded catalogue's first page; for each try a
/// second process runs `gutenberg favorites add ID`, and the time is taken from just before
/// that process is spawned to the browser's output showing the row's star (its standard output
/// is read every 10 ms, so up to 10 ms of the figure is the harness's). The baseline is the
/// `favorites add` process alone, spawn to exit, in the same try: the figure includes it.
enum CrossProcessBenchmark {
  static let marker = "all books · page 1 of"

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let tries = context.count(20, minimum: 5)
    Report.progress("figure 15: a favourite from another process, \(tries) tries")
    let data = try context.dataDirectory("cross-process")
    var environment = BenchRun.cleanEnvironment
    environment["GUTENBERG_DATA_DIR"] = data.path
    environment["NO_COLOR"] = "1"
    environment["COLUMNS"] = "120"
    let ids = try await firstPageIDs(context, environment)
    guard ids.count >= tries else { throw BenchError("the first page has \(ids.count) rows") }

    let browser = try ChildProcess(
      executable: context.binaries.gutenberg, arguments: ["--source", "embedded"],
      environment: environment)
    defer { browser.kill() }
    guard await browser.waitForOutput(timeout: .seconds(30), { $0.contains(marker) }) else {
      throw BenchError("the browser did not show its first page: \(browser.stdoutText.suffix(500))")
    }
    var latency = Samples()
    var adding = Samples()
    for index in 0..<tries {
      let screens = browser.stdoutText.components(separatedBy: marker).count
      let start = ContinuousClock.now
      let add = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: ["favorites", "add", String(ids[index]), "--source", "embedded"],
        environment: environment
      ).run(timeout: .seconds(30))
      guard add.exitStatus == 0 else { throw BenchError("favorites add failed: \(add.exitStatus)") }
      let starred = await browser.waitForOutput(timeout: .seconds(10)) { output in
        let parts = output.components(separatedBy: marker)
        guard parts.count > screens, let screen = parts.last else { return false }
        let stars = screen.split(separator: "\n").filter { $0.dropFirst(4).first == "*" }
        return stars.count == index + 1
      }
      guard starred else { throw BenchError("no star for book \(ids[index]) within 10 s") }
      latency.append(Stopwatch.seconds(ContinuousClock.now - start))
      adding.append(add.seconds)
    }
    browser.closeInput()
    _ = await browser.wait(timeout: .seconds(10))
    return [
      ResultRow(
        figure: "15 favourite from another process, seen by an open browser", unit: .seconds,
        samples: latency, baselineName: "favorites add alone", baseline: adding,
        target: .atMost(0.25),
        note:
          "spawn of `gutenberg favorites add` to the star in the open browser's output; the store "
          + "is polled every 100 ms (PRAGMA data_version) and the screen drawn again")
    ]
  }

  static func firstPageIDs(_ context: BenchContext, _ environment: [String: String])
    async throws -> [Int]
  {
    let list = try ChildProcess(
      executable: context.binaries.gutenberg, arguments: ["list", "--source", "embedded"],
      environment: environment)
    var ids: [Int] = []
    _ = await list.wait(timeout: .seconds(30))
    for line in list.stdoutText.split(separator: "\n") {
      if let id = Int(line.split(separator: "\t").first ?? "") { ids.append(id) }
    }
    return ids
  }
}
