import Foundation
import Gutendex
import GutendexServer

@testable import TestSupport

/// Runs documented command lines as written, with the built `gutenberg` first on `PATH`, in a
/// temporary home, working directory and data directory, against a loopback Gutendex serving
/// the whole embedded catalogue (so searches such as `dickens` find what they would online):
/// a ``LoopbackServer`` in the test process, which counts the requests, in front of a
/// `gutendex-server` child holding the catalogue (see ``UpstreamCatalogue`` for why).
///
/// What is changed before a line runs, and why:
/// - `swift run gutenberg` becomes `gutenberg`: the test runs the binary `swift build` made
///   rather than a nested build, which would fight the outer one for the build lock.
/// - the URL after `--server` (and in `GUTENDEX_URL=`) becomes the loopback server's, and
///   `GUTENDEX_URL` is set to it for every line, so no test reaches the internet; a line that
///   still names a remote URL is a failure, and the proxy variables point at a closed port as
///   a second guard.
/// - the URL after `--pg-url` becomes the loopback server's, and `GUTENBERG_PG_URL` is set to
///   it for every line: it serves Project Gutenberg's daily files (`today.rss`, records,
///   `pg_catalog.csv.gz`) and feed as PG lays them out.
/// - `GUTENBERG_MIRROR` is the loopback server, which serves the files of the books the README
///   downloads (84 and 1342), so `get` and `read` never reach Project Gutenberg.
/// - the URL after `progress login` becomes a loopback kosync server's (``KOSyncDouble``), and
///   `GUTENBERG_SMTP_URL` a loopback SMTP server's (``SMTPDouble``), so progress sync and
///   `send --to mail:` never leave the machine; `~/KOBOeReader` exists, as a mounted e-reader.
/// - `swift test`, `swift build` and `swift format` lines are skipped, with the reason in the
///   result; any other line must run `gutenberg`.
final class DocsSandbox: Sendable {
  /// How a documented line fared.
  struct Outcome: Sendable, CustomStringConvertible {
    var command: DocumentedCommand
    /// The line as run, after the changes above; nil when skipped.
    var ranLine: String?
    /// Why the line was not run.
    var skipped: String?
    var statuses: [Int32] = []
    var stdout = ""
    var stderr = ""
    /// What is wrong; empty when the line ran as documented.
    var problems: [String] = []

    var description: String {
      var text = "\(command)"
      if let ranLine, ranLine != command.line { text += "\n  ran: \(ranLine)" }
      if let skipped { text += "\n  skipped: \(skipped)" }
      text += "\n  exit statuses: \(statuses)"
      for problem in problems { text += "\n  problem: \(problem)" }
      text += "\n--- stdout ---\n\(stdout.suffix(2000))\n--- stderr ---\n\(stderr.suffix(1500))"
      return text
    }
  }

  let root: URL
  let home: URL
  let work: URL
  let data: URL
  let server: LoopbackServer
  let serverURL: String
  let upstream: UpstreamCatalogue
  /// The kosync server `progress login` talks to, and the SMTP server `send --to mail:` uses.
  let syncServer: LoopbackServer
  let syncURL: String
  let smtp: SMTPDouble

  private init(
    root: URL, server: LoopbackServer, serverURL: String, upstream: UpstreamCatalogue,
    syncServer: LoopbackServer, syncURL: String, smtp: SMTPDouble
  ) {
    self.root = root
    self.upstream = upstream
    self.syncServer = syncServer
    self.syncURL = syncURL
    self.smtp = smtp
    home = root.appendingPathComponent("home", isDirectory: true)
    work = root.appendingPathComponent("work", isDirectory: true)
    data = root.appendingPathComponent("data", isDirectory: true)
    self.server = server
    self.serverURL = serverURL
  }

  /// A fresh sandbox with its server running; call ``stop()`` when done.
  static func start() async throws -> DocsSandbox {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-docs-\(UUID().uuidString)", isDirectory: true)
    let upstream = try await UpstreamCatalogue.start()
    let server = LoopbackServer(handler: upstream, port: 0)
    let url: String
    do {
      url = try await server.start().absoluteString
    } catch {
      await upstream.stop()
      throw error
    }
    // Progress sync (`progress login URL` is pointed here) and mail (GUTENBERG_SMTP_URL).
    let syncServer = LoopbackServer(handler: KOSyncDouble())
    let syncURL = try await syncServer.start().absoluteString
    let smtp = try SMTPDouble()
    let sandbox = DocsSandbox(
      root: root, server: server, serverURL: url.hasSuffix("/") ? String(url.dropLast()) : url,
      upstream: upstream, syncServer: syncServer,
      syncURL: syncURL.hasSuffix("/") ? String(syncURL.dropLast()) : syncURL, smtp: smtp)
    upstream.setFront(sandbox.serverURL)
    // The books the README downloads (`get`, `read`), served the way Project Gutenberg serves
    // them, from the loopback server (GUTENBERG_MIRROR below points the files there).
    try BookFiles.serve84(on: server)
    try BookFiles.serveText(id: 1342, on: server)
    // Project Gutenberg's feed (`sync --feed`), made from fixture books, served here too.
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let feed = root.appendingPathComponent("rdf-files.tar.bz2")
    let books = try FixtureFiles.data("books.jsonl").split(separator: 0x0A).prefix(40)
    try FeedGenerator.writeFeed(books: books.map { Data($0) }, to: feed.path)
    server.serve(ServedFile(content: .file(feed)), at: Self.feedPath)
    // And its daily files (`sync` reads them: GUTENBERG_PG_URL below): today.rss naming three
    // of those books, their records, and the catalogue list of every book the server has.
    let site = try GutenbergSiteFixture(
      server: server, url: try HarnessFailure.unwrap(URL(string: sandbox.serverURL), "url"),
      directory: root.appendingPathComponent("site"))
    let named = Array(books.prefix(3)).map { Data($0) }
    try site.publishRecords(named)
    site.publishRSS(
      ids: try named.map { try Book.decode(from: $0).id }, built: Date(), version: 1)
    try await site.publishCSV(
      ids: try SyncFixture.embeddedIDs(), made: Date(), version: 1)
    for directory in [
      sandbox.home, sandbox.work, sandbox.data,
      // The e-reader's folder `send --to ~/KOBOeReader` copies into, as if mounted.
      sandbox.home.appendingPathComponent("KOBOeReader"),
    ] {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    return sandbox
  }

  /// Where the sandbox's server serves the feed.
  static let feedPath = "/cache/epub/feeds/rdf-files.tar.bz2"

  func stop() async {
    await server.stop()
    await syncServer.stop()
    smtp.stop()
    await upstream.stop()
    try? FileManager.default.removeItem(at: root)
  }

  /// The directory holding the built `gutenberg`.
  static var binaryDirectory: String {
    URL(fileURLWithPath: Gutenberg.binary).deletingLastPathComponent().path
  }

  var environment: [String: String] {
    let closedPort = "http://127.0.0.1:9"
    return [
      "PATH": "\(Self.binaryDirectory):/usr/bin:/bin", "HOME": home.path, "TMPDIR": root.path,
      "NO_COLOR": "1", "COLUMNS": "100", "LANG": "C.UTF-8", "GUTENBERG_DATA_DIR": data.path,
      "GUTENDEX_URL": serverURL, "http_proxy": closedPort, "https_proxy": closedPort,
      "HTTPS_PROXY": closedPort, "ALL_PROXY": closedPort, "no_proxy": "127.0.0.1,localhost",
      "NO_PROXY": "127.0.0.1,localhost", "GUTENBERG_MIRROR": serverURL,
      "GUTENBERG_FEED_URL": serverURL + Self.feedPath, "GUTENBERG_FEED_MAX_AGE": "never",
      "GUTENBERG_PG_URL": serverURL, "GUTENBERG_PG_PAUSE": "0",
      "GUTENBERG_SMTP_URL": smtp.url.absoluteString, "GUTENBERG_MAIL_FROM": "me@example.org",
    ]
  }

  /// The line as it will run, or why it is skipped; throws a problem for a line no rule covers.
  func prepare(_ command: DocumentedCommand) -> (line: String?, skipped: String?, problem: String?)
  {
    var line = command.line.replacing(/\bswift run(?: -c \w+)? gutenberg\b/, with: "gutenberg")
    let parsed = ShellWords.split(line)
    for words in parsed.segments {
      let program = Array(words.drop { $0.contains("=") && !$0.hasPrefix("-") })
      if program.first == "make" {
        return (
          nil,
          "a release build and install; InstallTests runs its copy step into a temporary prefix",
          nil
        )
      }
      guard program.first == "swift" else { continue }
      switch program.dropFirst().first {
      case "test":
        return (nil, "runs the test suite, this test included; CI runs `swift test` itself", nil)
      case "build":
        return (nil, "builds the package; this test runs the binary that build made", nil)
      case "format":
        return (nil, "checks the sources' style, not the product; CI runs it (`.ci/run`)", nil)
      default:
        return (nil, nil, "no rule to run `\(program.joined(separator: " "))` in a test")
      }
    }
    let loopback = serverURL
    line = line.replacing(/(--server[= ])(["']?)https?:\/\/[^\s"']+(["']?)/) { match in
      "\(match.1)\(loopback)"
    }
    line = line.replacing(/\bGUTENDEX_URL=(["']?)https?:\/\/[^\s"']+(["']?)/) { _ in
      "GUTENDEX_URL=\(loopback)"
    }
    // Project Gutenberg's site (`--pg-url`) is the loopback server too, which lays its daily
    // files out as PG does.
    line = line.replacing(/(--pg-url[= ])(["']?)https?:\/\/[^\s"']+(["']?)/) { match in
      "\(match.1)\(loopback)"
    }
    // A kosync server (`progress login URL`) is the sandbox's own, and so is the SMTP server.
    let sync = syncURL
    line = line.replacing(/(progress login )(["']?)https?:\/\/[^\s"']+(["']?)/) { match in
      "\(match.1)\(sync)"
    }
    let smtpURL = smtp.url.absoluteString
    line = line.replacing(/\bGUTENBERG_SMTP_URL=(["']?)smtps?:\/\/[^\s"']+(["']?)/) { _ in
      "GUTENBERG_SMTP_URL=\(smtpURL)"
    }
    for match in line.matches(of: /https?:\/\/[^\s"']+/)
    where !match.0.hasPrefix(loopback) && !match.0.hasPrefix(sync) {
      return (nil, nil, "would reach \(match.0) on the internet")
    }
    guard ShellWords.split(line).segments.contains(where: { Invocation(words: $0) != nil }) else {
      return (nil, nil, "runs no `gutenberg` command")
    }
    return (line, nil, nil)
  }

  /// Runs one documented line and checks its exit status and output.
  func run(_ command: DocumentedCommand, timeout: Duration = .seconds(120)) async throws -> Outcome
  {
    var outcome = Outcome(command: command)
    let prepared = prepare(command)
    if let problem = prepared.problem {
      outcome.problems.append(problem)
      return outcome
    }
    guard let line = prepared.line else {
      outcome.skipped = prepared.skipped
      return outcome
    }
    outcome.ranLine = line
    let statusFile = root.appendingPathComponent("pipestatus")
    try? FileManager.default.removeItem(at: statusFile)
    // bash, for PIPESTATUS: the status of every command of a pipeline, so a failing
    // `gutenberg` is caught even when `cut` after it succeeds.
    let script = """
      cd "$1" || exit 127
      \(line)
      printf '%s' "${PIPESTATUS[*]}" > "$2"
      """
    let requestsBefore = server.requestCount
    let child = try ChildProcess(
      executable: "/bin/bash",
      arguments: ["-c", script, "bash", work.path, statusFile.path], environment: environment)
    child.closeInput()
    let exit = await child.wait(timeout: timeout)
    let requests = server.requestCount - requestsBefore
    outcome.stdout = String(decoding: child.stdout, as: UTF8.self)
    outcome.stderr = String(decoding: child.stderr, as: UTF8.self)
    if exit.timedOut { outcome.problems.append("still running after \(timeout); killed") }
    let statusText = (try? String(contentsOf: statusFile, encoding: .utf8)) ?? ""
    outcome.statuses = statusText.split(separator: " ").compactMap { Int32($0) }
    if outcome.statuses.isEmpty {
      outcome.problems.append("the shell ended before the line did (exit \(exit.code ?? -1))")
      return outcome
    }
    check(line: line, requests: requests, into: &outcome)
    return outcome
  }
}
