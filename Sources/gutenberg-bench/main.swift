// gutenberg-bench: every figure of BENCHMARKS.md, each next to a baseline from the same run.
//
// Usage: swift run -c release gutenberg-bench [--quick] [--no-build] [--only 1,3,...]
//        [--gutenberg PATH]
// Talks only to 127.0.0.1 (a loopback server in this process); every loop is bounded.
import Foundation
import GutendexEngine
import GutendexServer

let arguments = CommandLine.arguments.dropFirst()
// Help before anything else: it must not build or measure.
if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    USAGE: gutenberg-bench [--quick] [--no-build] [--only N,N,...] [--gutenberg PATH]

    Measures every figure of BENCHMARKS.md against a baseline from the same run, and prints
    the table (progress goes to standard error). Run it from a release build:
    swift run -c release gutenberg-bench

    OPTIONS:
      --quick           fewer samples: a smoke run
      --no-build        measure the gutenberg and bench-hello binaries already built next to
                        this one (else `swift build -c release` builds them first)
      --only N,N,...    only these figures (1 to 25; 23, a real-size feed of ~2 GB of records
                        that takes minutes to write, runs only when named)
      --gutenberg PATH  measure this gutenberg binary (e.g. an older build, for before/after)
      -h, --help        show this help and do nothing else
    """)
  exit(0)
}
// The child process of figure 10 (a download to a disk that syncs every piece).
if let index = arguments.firstIndex(of: "--slow-sink"), arguments.count >= 3 {
  let rest = Array(arguments[index...].dropFirst())
  exit(await TransportBenchmark.slowSink(url: rest[0], path: rest[1]))
}
let quick = arguments.contains("--quick")
let only: Set<Int> =
  arguments.firstIndex(of: "--only").flatMap { index in
    arguments.index(after: index) < arguments.endIndex
      ? Set(arguments[arguments.index(after: index)].split(separator: ",").compactMap { Int($0) })
      : nil
  } ?? Set(1...22).union([24, 25])  // 23 only when named

func runAll() async throws -> [ResultRow] {
  var binaries = try Binaries.locate(build: !arguments.contains("--no-build"))
  // --gutenberg PATH: measure another build of `gutenberg` (e.g. an older commit's, for a
  // before/after table), with this build's bench-hello as the baseline.
  if let index = arguments.firstIndex(of: "--gutenberg"),
    arguments.index(after: index) < arguments.endIndex
  {
    binaries.gutenberg = arguments[arguments.index(after: index)]
  }
  Report.progress("loading the embedded catalogue")
  let engine = try EmbeddedCatalogue.load()
  let server = LoopbackServer(handler: engine)
  let url = try await server.start()
  let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("gutenberg-bench-\(getpid())", isDirectory: true)
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: scratch) }
  let context = BenchContext(
    engine: engine, server: server, url: url, scratch: scratch, binaries: binaries,
    scale: quick ? 0.3 : 1)
  var rows: [ResultRow] = []
  do {
    if only.contains(1) { rows += try await NextPageBenchmark.run(context) }
    if only.contains(2) { rows += try await ProcessBenchmarks.coldStart(context).rows }
    if only.contains(3) { rows += try DecodeBenchmark.run(context) }
    if only.contains(4) { rows += try await ProcessBenchmarks.memory(context) }
    if only.contains(5) { rows += try await FavoritesBenchmark.run(context) }
    if only.contains(6) { rows += try await SearchBenchmark.run(context) }
    if only.contains(7) { rows += try await EmbeddedQueryBenchmark.run(context) }
    if only.contains(8) { rows += try await DownloadBenchmark.download(context) }
    if only.contains(9) { rows += try DownloadBenchmark.reader(context) }
    if only.contains(10) { rows += try await TransportBenchmark.slowDisk(context) }
    if only.contains(11) { rows += try await TransportBenchmark.oversizedBody(context) }
    if only.contains(12) { rows += try await SuggestionBenchmark.run(context) }
    if only.contains(13) { rows += try await ReaderBenchmark.run(context) }
    if only.contains(14) { rows += try await SyncBenchmark.run(context) }
    if only.contains(15) { rows += try await CrossProcessBenchmark.run(context) }
    if only.contains(16) { rows += try await FavoritesStreamBenchmark.run(context) }
    if only.contains(17) { rows += try await FeedBenchmark.run(context) }
    if only.contains(18) { rows += try await LibrarySearchBenchmark.run(context) }
    if only.contains(19) { rows += try await NewBooksBenchmark.run(context) }
    if only.contains(20) { rows += try await BrowserBenchmark.run(context) }
    if only.contains(21) { rows += try await DailySyncBenchmark.run(context) }
    if only.contains(22) { rows += try await ProgressBenchmark.run(context) }
    if only.contains(23) { rows += try await RealFeedBenchmark.run(context) }
    if only.contains(24) { rows += try await EpubBenchmark.run(context) }
    if only.contains(25) { rows += try await NotesBenchmark.run(context) }
  } catch {
    await server.stop()
    throw error
  }
  await server.stop()
  return rows
}

// The process figure 12 measures: no catalogue, no server, just the reader.
if let path = ReaderBenchmark.childPath(arguments) {
  exit(ReaderBenchmark.child(path: path, reflow: arguments.contains("--reflow")))
}

do {
  let started = ContinuousClock.now
  let loadBefore = Machine.loadAverage
  let rows = try await runAll()
  let seconds = Stopwatch.seconds(ContinuousClock.now - started)
  print("Machine: \(Machine.description)")
  print("Load average (1 min) before / after the run: \(loadBefore) / \(Machine.loadAverage)")
  print("")
  print(ResultRow.table(rows))
  print("")
  print("ratio = median / baseline median. Notes:")
  for row in rows {
    if let note = row.note { print("- \(row.figure): \(note)") }
  }
  print(String(format: "- whole run: %.0f s", seconds))
  let missed = rows.filter { $0.met == false }.map(\.figure)
  print(missed.isEmpty ? "All targets met." : "Targets missed: \(missed.joined(separator: "; "))")
} catch {
  Report.progress("error: \(error)")
  exit(1)
}
