import Foundation
import Gutendex
import GutendexEngine
import GutendexServer

/// The built `gutenberg` binary, run as a user would: its own data directory, a clean
/// environment (no inherited `GUTENDEX_URL`), `NO_COLOR=1`, `COLUMNS=100`, and a deadline.
struct Gutenberg {
  /// What one run printed and how it ended.
  struct Run: Sendable, CustomStringConvertible {
    var exit: ChildProcess.Exit
    var stdout: Data
    var stderr: Data

    var status: Int32? { exit.code }
    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
    /// Standard output without colour codes and with wrapped lines joined again (a wrapped
    /// line goes on indented), to find a message whatever the terminal width.
    var unwrapped: String {
      out.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        .replacingOccurrences(of: "\n +", with: " ", options: .regularExpression)
    }
    /// The non-empty lines of standard error.
    var errLines: [String] { err.split(separator: "\n").map(String.init) }
    /// The non-empty lines of standard output.
    var outLines: [String] { out.split(separator: "\n").map(String.init) }
    /// No signal and no deadline: the process ended by itself with a code.
    var endedByItself: Bool { exit.code != nil && !exit.timedOut }

    var description: String {
      "exit \(exit.code.map(String.init) ?? "signal \(exit.signal ?? 0)")"
        + (exit.timedOut ? " (killed at the deadline)" : "")
        + "\n--- stdout ---\n\(out.suffix(3000))\n--- stderr ---\n\(err.suffix(2000))"
    }
  }

  /// The directory of the test runner, where SwiftPM also puts the executables.
  static let binary: String = {
    let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var directory = runner.deletingLastPathComponent()
    // On some toolchains the runner sits inside `<name>.xctest/`; walk up to the build dir.
    while !FileManager.default.isExecutableFile(
      atPath: directory.appendingPathComponent("gutenberg").path), directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent("gutenberg").path
  }()

  /// The data directory (favourites and cache) this instance uses; removed by ``cleanUp()``.
  let root: URL
  let dataDirectory: URL
  var extraEnvironment: [String: String] = [:]
  /// A command every run of the binary goes under (e.g. `setpriv`, to run it as another user).
  var runAs: [String] = []
  /// The binary this instance runs: the built one, or an installed copy (``install(into:)``).
  var executable = Gutenberg.binary

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-e2e-\(UUID().uuidString)", isDirectory: true)
    dataDirectory = root.appendingPathComponent("data", isDirectory: true)
    try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
  }

  func cleanUp() {
    try? FileManager.default.removeItem(at: root)
  }

  var environment: [String: String] {
    var environment = [
      "PATH": "/usr/bin:/bin", "HOME": root.path, "TMPDIR": root.path, "NO_COLOR": "1",
      "COLUMNS": "100", "LANG": "C.UTF-8", "GUTENBERG_DATA_DIR": dataDirectory.path,
      // Book files (`get`, `read`, `d` at the prompt) never leave this machine: unless a test
      // points it at its own server, the mirror is a loopback port where nothing listens.
      "GUTENBERG_MIRROR": "http://127.0.0.1:9",
      // Likewise Project Gutenberg's feed: never refreshed by itself, and a `sync --feed` that
      // is not given a test's own feed finds nothing listening.
      "GUTENBERG_FEED_MAX_AGE": "never", "GUTENBERG_FEED_URL": "http://127.0.0.1:9/feed.tar.bz2",
    ]
    environment.merge(extraEnvironment) { _, new in new }
    return environment
  }

  /// Starts the binary in ``root`` (so an `export` without a path lands there); the caller
  /// feeds it and waits for it. `shellPrefix` runs first in the same shell, which then execs
  /// the binary under the same pid (e.g. `ulimit -f 1`). With a `wrapper` (a program and its
  /// arguments) the shell execs the wrapper instead, which runs the binary as its child.
  func start(
    _ arguments: [String], shellPrefix: String = "", wrapper: [String] = []
  ) throws -> ChildProcess {
    let script = shellPrefix + #"cd "$1" || exit 127; shift; exec "$@""#
    return try ChildProcess(
      executable: "/bin/sh",
      arguments: ["-c", script, "sh", root.path] + runAs + wrapper + [executable] + arguments,
      environment: environment)
  }

  /// Runs the binary to the end with `input` on standard input.
  func run(
    _ arguments: [String], input: String = "", timeout: Duration = .seconds(60)
  ) async throws -> Run {
    try await run(arguments, inputData: Data(input.utf8), timeout: timeout)
  }

  func run(
    _ arguments: [String], inputData: Data, shellPrefix: String = "", wrapper: [String] = [],
    timeout: Duration = .seconds(60)
  ) async throws -> Run {
    let child = try start(arguments, shellPrefix: shellPrefix, wrapper: wrapper)
    await child.write(inputData)
    child.closeInput()
    let exit = await child.wait(timeout: timeout)
    return Run(exit: exit, stdout: child.stdout, stderr: child.stderr)
  }

  /// Runs the binary to the end under GNU `time` writing `format` (its `--format`) to a
  /// report file; the run and the fields of the report's last line (`time` puts a note about
  /// a failed command on the lines before).
  private func runUnderTime(
    _ arguments: [String], format: String, timeout: Duration = .seconds(60)
  ) async throws -> (run: Run, fields: [Substring], report: String) {
    let report = root.appendingPathComponent("time-\(UUID().uuidString)").path
    let time = try SystemTool.path("time")
    let run = try await run(
      arguments, inputData: Data(), wrapper: [time, "--format", format, "--output", report],
      timeout: timeout)
    let text = try String(contentsOfFile: report, encoding: .utf8)
    let fields = text.split(separator: "\n").last?.split(separator: " ") ?? []
    return (run, fields, text)
  }

  /// Runs the binary to the end under GNU `time`, which reports the binary's own peak
  /// resident set (KiB).
  ///
  /// Not ``ChildProcess/Exit/maxRSSKiB``: a child spawned by this process starts its
  /// `ru_maxrss` at the peak of the test runner (see there), which runs every other suite
  /// alongside. `time` is a small process, and the binary it forks starts from its size.
  func runMeasuringPeak(
    _ arguments: [String], timeout: Duration = .seconds(60)
  ) async throws -> (run: Run, peakKiB: Int) {
    let measured = try await runUnderTime(arguments, format: "%M", timeout: timeout)
    let peak = try HarnessFailure.unwrap(
      measured.fields.count == 1 ? Int(measured.fields[0]) : nil,
      "no peak in time's report: \(measured.report)")
    return (measured.run, peak)
  }

  /// Runs the binary to the end under GNU `time`; its run and the CPU time it used (user and
  /// system, the child's own rusage): what a test compares when the work, not the machine's
  /// load, is the question.
  func runMeasuringCPU(
    _ arguments: [String], timeout: Duration = .seconds(60)
  ) async throws -> (run: Run, cpu: Duration) {
    let measured = try await runUnderTime(arguments, format: "%U %S", timeout: timeout)
    let seconds = measured.fields.compactMap { Double($0) }
    let total = try HarnessFailure.unwrap(
      seconds.count == 2 ? seconds[0] + seconds[1] : nil,
      "no times in time's report: \(measured.report)")
    return (measured.run, .milliseconds(Int64((total * 1000).rounded())))
  }

  /// Runs the binary to the end under GNU `time`, which counts the page faults (minor and
  /// major) it took: pages it touched, a measure that does not depend on the machine's load.
  func runCountingPageFaults(_ arguments: [String]) async throws -> (run: Run, faults: Int) {
    let measured = try await runUnderTime(arguments, format: "%R %F")
    let counts = measured.fields.compactMap { Int($0) }
    let faults = try HarnessFailure.unwrap(
      counts.count == 2 ? counts[0] + counts[1] : nil,
      "no counts in time's report: \(measured.report)")
    return (measured.run, faults)
  }

  /// `favorites list` as TSV: the ids, newest first.
  func favoriteIDs() async throws -> [Int] {
    let run = try await self.run(["favorites", "list", "--source", "embedded"])
    try HarnessFailure.check(run.status == 0, "favorites list failed: \(run)")
    return try run.outLines.map { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return try HarnessFailure.unwrap(
        Int(fields.first ?? ""), "not a TSV favourite line: \(line)")
    }
  }
}

/// The fixture books and an engine over them.
enum Fixture {
  static func data(_ name: String) throws -> Data {
    try FixtureFiles.data(name)
  }

  /// 343 real books of the 2025-08 catalogue.
  static func engine() throws -> GutendexEngine {
    try GutendexEngine(jsonLines: data("books.jsonl"))
  }
}

/// A loopback Gutendex server over the fixture books, stopped by ``stop()``.
struct TestServer {
  let server: LoopbackServer
  let url: URL
  let engine: GutendexEngine

  static func start(engine: GutendexEngine? = nil) async throws -> TestServer {
    let engine = try engine ?? Fixture.engine()
    let server = LoopbackServer(handler: engine, port: 0)
    let url = try await server.start()
    return TestServer(server: server, url: url, engine: engine)
  }

  func stop() async {
    await server.stop()
  }

  /// What the engine itself answers for `target` (e.g. `/books/?search=x`).
  func engineAnswer(_ target: String) async throws -> HTTPResponse {
    let url = try HarnessFailure.unwrap(URL(string: url.absoluteString + target), target)
    return try await engine.send(HTTPRequest(url: url))
  }

  /// The ids of a page the engine answers for `target`.
  func engineIDs(_ target: String) async throws -> (count: Int, ids: [Int]) {
    let response = try await engineAnswer(target)
    let object = try HarnessFailure.unwrap(
      JSONSerialization.jsonObject(with: response.body) as? [String: Any], "not a page: \(target)")
    let results = try HarnessFailure.unwrap(object["results"] as? [[String: Any]], "no results")
    return (
      try HarnessFailure.unwrap(object["count"] as? Int, "no count"),
      try results.map { try HarnessFailure.unwrap($0["id"] as? Int, "a result without an id") }
    )
  }
}

extension String {
  /// How many times `needle` occurs.
  func occurrences(of needle: String) -> Int {
    components(separatedBy: needle).count - 1
  }
}

extension GutendexEngine {
  /// A book's title as the engine serves it.
  func title(of id: Int) throws -> String? {
    guard let json = bookJSON(id: id) else { return nil }
    let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
    return object?["title"] as? String
  }
}
