import Foundation
import Terminal

/// Figures 2 and 4: whole `gutenberg` processes, next to the trivial `bench-hello`.
@MainActor
enum ProcessBenchmarks {
  /// Figure 2: start to first page written, `gutenberg list` to a file; a search, and a search
  /// that finds few books and so prints "did you mean" (issue 36: the start is mostly the query).
  static func coldStart(_ context: BenchContext) async throws -> (rows: [ResultRow], hello: Samples)
  {
    let runs = context.count(15, minimum: 10)
    let binaries = context.binaries
    let listing = context.scratch.appendingPathComponent("list.txt").path
    let notes = context.scratch.appendingPathComponent("list-stderr.txt").path
    Report.progress("figure 2: cold start, \(runs) runs each of bench-hello and gutenberg list")

    // Served from the cache: fill it once online, then start offline.
    let cached = try context.dataDirectory("cold-cache")
    let before = context.server.requestCount
    let fill = try await BenchRun(
      executable: binaries.gutenberg,
      arguments: ["list", "--server", context.url.absoluteString, "--data-dir", cached.path],
      output: listing
    ).run(timeout: .seconds(60))
    try checkListing(fill, listing)
    guard context.server.requestCount > before else {
      throw BenchError("the cache-filling run did not reach the loopback server")
    }
    let embedded = try context.dataDirectory("cold-embedded")
    let commands: [(String, [String])] = [
      ("hello", []),
      // Issue 26: `--version` touches no store and no catalogue; it costs the start alone.
      ("version", ["--version"]),
      ("embedded", ["list", "--source", "embedded", "--data-dir", embedded.path]),
      (
        "cache",
        [
          "list", "--offline", "--server", context.url.absoluteString, "--data-dir", cached.path,
        ]
      ),
      (
        "search",
        [
          "list", "--search", "dickens", "--language", "en", "--source", "embedded",
          "--data-dir", embedded.path,
        ]
      ),
      (
        "suggestion",
        ["list", "--search", "shakespere", "--source", "embedded", "--data-dir", embedded.path]
      ),
    ]
    var times: [String: Samples] = [:]
    let served = context.server.requestCount
    // Interleaved, so a slow patch of the machine hits every kind alike; one warm-up each.
    for run in 0...runs {
      for (name, arguments) in commands {
        var child = BenchRun(
          executable: name == "hello" ? binaries.hello : binaries.gutenberg,
          arguments: arguments, output: listing)
        child.error = notes
        let outcome = try await child.run()
        switch name {
        case "hello", "version":
          guard outcome.exitStatus == 0 else { throw BenchError("\(name) failed") }
        case "suggestion":
          // One book found, and the proposal on standard error.
          let said = (try? String(contentsOfFile: notes, encoding: .utf8)) ?? ""
          guard outcome.exitStatus == 0, said.contains("did you mean: shakespeare") else {
            throw BenchError("the suggestion run failed (status \(outcome.exitStatus)): \(said)")
          }
        default:
          try checkListing(outcome, listing)
        }
        if run > 0 { times[name, default: Samples()].append(outcome.seconds) }
      }
    }
    guard context.server.requestCount == served else {
      throw BenchError("an offline run asked the server")
    }
    let hello = times["hello"] ?? Samples()
    return (
      [
        ResultRow(
          figure: "2. cold start, gutenberg --version", unit: .seconds,
          samples: times["version"] ?? Samples(), baselineName: "bench-hello", baseline: hello,
          target: .ratioAtMost(2)),
        ResultRow(
          figure: "2. cold start, list --source embedded", unit: .seconds,
          samples: times["embedded"] ?? Samples(), baselineName: "bench-hello", baseline: hello,
          target: .ratioAtMost(4)),
        ResultRow(
          figure: "2. cold start, list --offline (cache)", unit: .seconds,
          samples: times["cache"] ?? Samples(), baselineName: "bench-hello", baseline: hello,
          target: .atMost(0.050)),
        ResultRow(
          figure: "2. cold start, list --search dickens --language en", unit: .seconds,
          samples: times["search"] ?? Samples(), baselineName: "bench-hello", baseline: hello,
          target: .ratioAtMost(5)),
        ResultRow(
          figure: "2. cold start, list --search shakespere (did you mean)", unit: .seconds,
          samples: times["suggestion"] ?? Samples(), baselineName: "bench-hello", baseline: hello,
          target: .ratioAtMost(6),
          note: "one book found; \"did you mean: shakespeare (436 books), …\" on standard error"),
      ], hello
    )
  }

  /// The run succeeded and wrote a page of books (one tab-separated line each).
  private static func checkListing(_ outcome: BenchRun.Outcome, _ path: String) throws {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n").filter { $0.contains("\t") }
    guard outcome.exitStatus == 0, lines.count >= 32 else {
      throw BenchError("gutenberg list failed (status \(outcome.exitStatus)): \(text.prefix(300))")
    }
  }

  /// Figure 4: peak RSS of `gutenberg browse` paging through N pages from piped-in `n` lines.
  static func memory(_ context: BenchContext) async throws -> [ResultRow] {
    let binaries = context.binaries
    var helloRSS = Samples()
    for _ in 0..<3 {
      let outcome = try await BenchRun(executable: binaries.hello, arguments: ["--linger"])
        .run(timeout: .seconds(10))
      helloRSS.append(outcome.peakRSS)
    }
    var rows: [ResultRow] = []
    for pages in [100, 500, 1000] {
      Report.progress("figure 4: peak RSS after \(pages) pages")
      let directory = try context.dataDirectory("memory-\(pages)")
      let input = context.scratch.appendingPathComponent("next-\(pages).txt")
      try Data(String(repeating: "n\n", count: pages).utf8).write(to: input)
      let before = context.server.requestCount
      let screens = context.scratch.appendingPathComponent("screens-\(pages).txt").path
      let outcome = try await BenchRun(
        executable: binaries.gutenberg,
        arguments: [
          "browse", "--server", context.url.absoluteString, "--data-dir", directory.path,
        ],
        input: input.path, output: screens
      ).run(timeout: .seconds(600))
      let requests = context.server.requestCount - before
      let text = (try? String(contentsOfFile: screens, encoding: .utf8)) ?? ""
      guard outcome.exitStatus == 0, requests >= pages,
        text.contains("page \(TextFormat.grouped(pages + 1)) of ")
      else {
        throw BenchError(
          "browse of \(pages) pages failed (status \(outcome.exitStatus), \(requests) requests)")
      }
      try? FileManager.default.removeItem(atPath: screens)
      rows.append(
        ResultRow(
          figure: "4. peak RSS, \(pages) pages in one session", unit: .bytes,
          samples: Samples([outcome.peakRSS]), baselineName: "bench-hello", baseline: helloRSS,
          target: pages == 1000 ? .atMost(64 * 1_048_576) : .none,
          note: String(format: "%d pages in %.1f s", pages, outcome.seconds)))
    }
    return rows
  }
}
