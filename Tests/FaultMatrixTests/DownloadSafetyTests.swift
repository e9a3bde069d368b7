import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Downloads kept safe from each other and from what is on disk, with the real binary against
/// a loopback file server: two `get`s of one book, a `.part` that is a link, a sidecar with
/// header injection or damaged JSON, a mirror that goes away mid-file, hints that repeat the
/// options given, and a kill between publishing a file and recording it.
@Suite(.serialized, .ownThread)
struct DownloadSafetyTests {
  static let name = "84-frankenstein-or-the-modern-prometheus.epub"
  static let epubPath = "/cache/epub/84/pg84-images-3.epub"

  /// A file server for book 84 (metadata from the embedded catalogue) and a binary fetching
  /// from it.
  struct Bench {
    let server: LoopbackServer
    let url: URL
    let app: Gutenberg

    static func start(port: UInt16 = 0) async throws -> Bench {
      let server = LoopbackServer(handler: try Fixture.engine(), port: port)
      let url = try await server.start()
      return Bench(server: server, url: url, app: try Gutenberg().mirrored(to: url))
    }

    var target: URL { app.root.appendingPathComponent(DownloadSafetyTests.name) }
    var part: URL { URL(fileURLWithPath: target.path + ".part") }
    var info: URL { URL(fileURLWithPath: target.path + ".part.info") }
    var lock: URL { URL(fileURLWithPath: target.path + ".part.lock") }

    /// The URL the binary asks for book 84's EPUB: PG's, moved to the mirror.
    var fileURL: String {
      var base = url.absoluteString
      while base.hasSuffix("/") { base.removeLast() }
      return base + "/ebooks/84.epub3.images"
    }

    func get(_ extra: [String] = []) async throws -> Gutenberg.Run {
      try await app.run(
        ["get", "84", "--source", "embedded"] + extra, inputData: Data(), timeout: .seconds(120))
    }

    func start(_ extra: [String] = []) throws -> ChildProcess {
      let child = try app.start(["get", "84", "--source", "embedded"] + extra)
      child.closeInput()
      return child
    }

    func size(_ url: URL) -> Int? {
      (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
    }

    func libraryLines() async throws -> [String] {
      try await app.run(["library"]).outLines
    }
  }

  static func with(_ body: (Bench) async throws -> Void) async throws {
    let bench = try await Bench.start()
    defer { bench.app.cleanUp() }
    do {
      try await body(bench)
    } catch {
      await bench.server.stop()
      throw error
    }
    await bench.server.stop()
  }

  /// Waits until `predicate` holds (checked every 20 ms) or `Awaiting.standard` passes;
  /// returns whether it held. For waits that must not throw: a process or lock to let go of.
  static func eventually(_ predicate: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + Awaiting.standard
    while !predicate() {
      if ContinuousClock.now > deadline { return false }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return true
  }

  static func errorText(_ child: ChildProcess) -> String {
    String(decoding: child.stderr, as: UTF8.self)
  }

  // MARK: - Symptom 1: two gets of one book

  /// The first `get` is held by the server mid-body; the second waits for its lock, says for
  /// whom, and never touches the part; when the first gives up (its mirror goes away), the
  /// second resumes the part and the file is exactly the served bytes.
  @Test func aSecondGetOfTheSameBookWaitsForTheFirst() async throws {
    try await Self.with { bench in
      let size = 1_000_000
      try BookFiles.serve84(on: bench.server, epubSize: size)
      // The stall is the first get's alone (its redirect and its file request), and it lasts
      // until the test ends it: the first's own timeout (the longest there is) never comes
      // into it. With a 60 s timeout instead, a loaded machine took longer than that to start
      // the second and see it wait; by then the first had given up and the second had resumed
      // (two file requests where the test expected one).
      bench.server.faults = FaultPlan(stallMidBody: true, remainingRequests: 2)
      let first = try bench.start(["--timeout", "600"])
      try await Awaiting.condition("the first get's part to hold half the file") {
        bench.size(bench.part) == size / 2
      }
      #expect(
        (try? String(contentsOf: bench.lock, encoding: .utf8)) == "\(first.pid)\n",
        "the holder's PID is in the lock file")

      let second = try bench.start()
      let note = "note: waiting for process \(first.pid), which is downloading \(Self.name)"
      try await Awaiting.condition("the second get to say it waits for the first") {
        Self.errorText(second).contains(note)
      }
      #expect(bench.server.fileRangeHeaders.count == 1, "the waiter sent nothing")

      // The first gives up now: its connection ends mid-body, and its retry is sent to a host
      // it will not follow (69 at once, the part kept). That is the plan's one request: the
      // second's, which can only come once the first has let go of the lock, is served whole.
      try await Awaiting.condition("the server to hold the first get's response") {
        bench.server.stallCount == 1
      }
      bench.server.faults = FaultPlan(redirectToForeignHost: true, remainingRequests: 1)
      #expect(bench.server.endStalls() == 1)
      let firstExit = await first.wait(timeout: .seconds(60))
      #expect(firstExit.code == 69, "\(Self.errorText(first))")
      #expect(
        Self.errorText(first).contains("refused redirect"),
        "the first ended as the test made it, not by its timeout: \(Self.errorText(first))")
      let secondExit = await second.wait(timeout: .seconds(60))
      let secondErr = Self.errorText(second)
      #expect(secondExit.code == 0, "\(secondErr)")
      #expect(secondErr == note + "\n")
      #expect(second.stdoutText == bench.target.path + "\n")
      #expect(bench.server.fileRangeHeaders.last == "bytes=\(size / 2)-")
      #expect(
        try Data(contentsOf: bench.target) == ServedFile.generatedBytes(offset: 0, count: size))
      #expect(try await bench.libraryLines().count == 1)
      let left = try FileManager.default.contentsOfDirectory(atPath: bench.app.root.path)
      #expect(left.filter { $0.hasPrefix("84-") } == [Self.name], "\(left)")

      // A third get finds the book in the library at that path: its path, nothing fetched.
      let requests = bench.server.fileRangeHeaders.count
      let again = try await bench.get()
      #expect(again.status == 0, "\(again)")
      #expect(again.outLines == [bench.target.path])
      #expect(bench.server.fileRangeHeaders.count == requests)
    }
  }

  /// Ctrl-C while waiting for another process's lock: 130, and nothing written.
  @Test func ctrlCWhileWaitingExits130AndWritesNothing() async throws {
    try await Self.with { bench in
      try BookFiles.serve84(on: bench.server, epubSize: 600_000)
      bench.server.faults = FaultPlan(stallMidBody: true)
      // The first holds its lock until the test kills it: with the default 30 s it could give
      // up first on a loaded machine, and the second would resume instead of waiting.
      let first = try bench.start(["--timeout", "600"])
      try await Awaiting.condition("the first get's part to hold the 300000 bytes sent") {
        bench.size(bench.part) == 300_000
      }
      let info = try Data(contentsOf: bench.info)

      let second = try bench.start()
      try await Awaiting.condition("the second get to say it waits for the first") {
        Self.errorText(second).contains("note: waiting for")
      }
      second.kill(SIGINT)
      let exit = await second.wait(timeout: .seconds(60))
      #expect(exit.code == 130, "\(Self.errorText(second))")
      #expect(
        Self.errorText(second).split(separator: "\n").last
          == "error: interrupted while waiting for process \(first.pid); nothing written")
      #expect(bench.size(bench.part) == 300_000)
      #expect(try Data(contentsOf: bench.info) == info)
      #expect(bench.server.fileRangeHeaders.count == 1)
      #expect(!FileManager.default.fileExists(atPath: bench.target.path))
      first.kill(SIGKILL)
      _ = await first.wait(timeout: .seconds(60))
    }
  }

  // MARK: - Symptom 2: links

  /// A `.part` or `.part.info` that is a symbolic link is refused with one line naming it;
  /// the link's target is untouched and nothing is fetched.
  @Test(arguments: [".part", ".part.info"])
  func aLinkInPlaceOfAPartFileIsNeverFollowed(suffix: String) async throws {
    try await Self.with { bench in
      try BookFiles.serve84(on: bench.server, epubSize: 200_000)
      let victim = bench.app.root.appendingPathComponent("victim.txt")
      let precious = Data("precious".utf8)
      try precious.write(to: victim)
      let link = bench.target.path + suffix
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim.path)
      let run = try await bench.get()
      #expect(run.status == 1, "\(run)")
      #expect(
        run.errLines == [
          "error: cannot write \(link): it is a symbolic link, not a regular file; not following it"
        ], "\(run)")
      #expect(try Data(contentsOf: victim) == precious)
      #expect(
        (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == victim.path,
        "the link itself is left alone")
      #expect(bench.server.fileRangeHeaders.isEmpty)
      #expect(!FileManager.default.fileExists(atPath: bench.target.path))
    }
  }

  // MARK: - Symptom 3: what is read from disk is checked

  /// A sidecar whose validator holds CR LF (header injection), or that is not JSON, is ignored
  /// with one note: the download starts over without `Range`, and the validator is never sent.
  @Test(arguments: [
    (
      "{\"url\":\"URL\",\"validator\":\"\\\"v1\\\"\\r\\nX-Injected: yes\",\"total\":300000}",
      "its validator contains a control character"
    ),
    ("{\"url\":\"URL\",\"validator\":\"\\\"v1\\\"\",\"total\":-5}", "its size is negative"),
    ("{\"url\": \"URL\", \"valid", "it is not the JSON this program writes"),
  ])
  func aBadSidecarIsIgnoredAndNeverSent(sidecar: String, reason: String) async throws {
    try await Self.with { bench in
      let size = 300_000
      try BookFiles.serve84(on: bench.server, epubSize: size)
      try ServedFile.generatedBytes(offset: 0, count: 100_000).write(to: bench.part)
      try Data(sidecar.replacingOccurrences(of: "URL", with: bench.fileURL).utf8).write(
        to: bench.info)
      let run = try await bench.get()
      #expect(run.status == 0, "\(run)")
      #expect(
        run.errLines == [
          "note: ignored \(bench.info.path): \(reason); starting the download over"
        ], "\(run)")
      #expect(bench.server.fileRangeHeaders == [nil], "no Range, no If-Range")
      #expect(
        try Data(contentsOf: bench.target) == ServedFile.generatedBytes(offset: 0, count: size))
    }
  }

  // MARK: - Symptom 4: a mirror that goes away keeps the part

  /// A `gutendex-server` process serving book 84's EPUB at its PG path, with `flags`; returns
  /// it and its URL once it listens.
  static func mirrorProcess(port: UInt16, flags: [String]) async throws -> (ChildProcess, URL) {
    let binary = URL(fileURLWithPath: Gutenberg.binary).deletingLastPathComponent()
      .appendingPathComponent("gutendex-server").path
    let child = try ChildProcess(
      executable: binary,
      arguments: [
        "--port", "\(port)", "--books", try FixtureFiles.url("books.jsonl").path,
        "--generate", "/ebooks/84.epub3.images=800000",
      ] + flags, environment: ["PATH": "/usr/bin:/bin"])
    child.closeInput()
    #expect(await child.waitForOutput { $0.contains("http://127.0.0.1:") }, "\(child.stdoutText)")
    let text = child.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    let url = try #require(text.split(separator: "\n").last.flatMap { URL(string: String($0)) })
    return (child, url)
  }

  /// The mirror (a server process) dies in the middle of the file, so the retry's connection
  /// is refused: the part and its sidecar are kept, the error says how to resume, and the
  /// resume works once the mirror is back on the same port.
  @Test func aMirrorThatGoesAwayMidFileKeepsThePart() async throws {
    let (mirror, url) = try await Self.mirrorProcess(port: 0, flags: ["--stall-mid-body"])
    let app = try Gutenberg().mirrored(to: url)
    defer { app.cleanUp() }
    let target = app.root.appendingPathComponent(Self.name)
    let part = URL(fileURLWithPath: target.path + ".part")
    func size(_ url: URL) -> Int? {
      (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
    }
    // The mirror's death ends the transfer, not a stall timeout that a slow test could let
    // pass first (a different message).
    let child = try app.start(["get", "84", "--source", "embedded", "--timeout", "600"])
    child.closeInput()
    #expect(await Self.eventually { size(part) == 400_000 })
    mirror.kill(SIGKILL)
    _ = await mirror.wait(timeout: .seconds(60))
    let exit = await child.wait(timeout: .seconds(60))
    let err = Self.errorText(child)
    #expect(exit.code == 69, "\(err)")
    #expect(err.hasPrefix("error: cannot reach 127.0.0.1"), "\(err)")
    #expect(
      err.hasSuffix(
        "; 400000 bytes received so far; the partial file \(part.path) is kept: run "
          + "`gutenberg get 84` to resume\n"), "\(err)")
    #expect(err.split(separator: "\n").count == 1, "\(err)")
    #expect(size(part) == 400_000)
    #expect(FileManager.default.fileExists(atPath: target.path + ".part.info"))

    let (back, _) = try await Self.mirrorProcess(port: UInt16(try #require(url.port)), flags: [])
    let resumed = try await app.run(["get", "84", "--source", "embedded"])
    #expect(resumed.status == 0, "\(resumed)")
    #expect(
      try Data(contentsOf: target) == ServedFile.generatedBytes(offset: 0, count: 800_000))
    #expect(!resumed.err.contains("fetched it again"), "\(resumed)")
    back.kill(SIGTERM)
    _ = await back.wait(timeout: .seconds(60))
  }

  // MARK: - Symptom 5: hints repeat the options

  /// A stalled download into a directory with a space, with `--format` and `--mirror`: the
  /// hint repeats all three, quoted for a shell, and running it as written resumes the part.
  @Test func theResumeHintRepeatsTheOptionsAndRunsAsWritten() async throws {
    let bench = try await Bench.start()
    defer { bench.app.cleanUp() }
    try BookFiles.serve84(on: bench.server, epubSize: 200_000)
    bench.server.faults = FaultPlan(stallMidBody: true)
    // The mirror is given on the command line (the environment's points nowhere).
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let directory = app.root.appendingPathComponent("my books", isDirectory: true)
    let mirror = bench.url.absoluteString
    let stalled = try await app.run(
      [
        "get", "84", "--source", "embedded", "--format", "epub", "-o", directory.path + "/",
        "--mirror", mirror, "--timeout", "1",
      ], inputData: Data(), timeout: .seconds(60))
    #expect(stalled.status == 69, "\(stalled)")
    let part = directory.appendingPathComponent(Self.name).path + ".part"
    let hint =
      "gutenberg get 84 --format epub -o '\(directory.path)/' --mirror \(mirror)"
    #expect(
      stalled.err.hasSuffix("; the partial file \(part) is kept: run `\(hint)` to resume\n"),
      "\(stalled)")

    bench.server.faults = .none
    // The hint, word for word, through a shell (book 84 from the embedded catalogue, as before).
    let words = hint.dropFirst("gutenberg ".count)
    let child = try ChildProcess(
      executable: "/bin/sh",
      arguments: ["-c", "\"$0\" \(words) --source embedded", Gutenberg.binary],
      environment: app.environment)
    child.closeInput()
    let exit = await child.wait(timeout: .seconds(60))
    #expect(exit.code == 0, "\(String(decoding: child.stderr, as: UTF8.self))")
    #expect(bench.server.fileRangeHeaders.last == "bytes=100000-")
    #expect(
      try Data(contentsOf: directory.appendingPathComponent(Self.name))
        == ServedFile.generatedBytes(offset: 0, count: 200_000))
    await bench.server.stop()
  }

  // MARK: - Symptom 7: a kill between publishing and recording

  /// The library is locked by another process once the `get` holds its download lock (the
  /// server holds its request until then), so the `get` publishes the file and then waits to
  /// record it; it is killed there. The next `get` adopts the file (its size matches the
  /// mark the first left), records it and prints its path, without fetching anything.
  @Test func aFilePublishedButNotRecordedIsAdoptedByTheNextGet() async throws {
    try await Self.with { bench in
      let size = 250_000
      try BookFiles.serve84(on: bench.server, epubSize: size)
      #expect(try await bench.libraryLines().isEmpty, "the database exists")
      // Held until the library is locked, not answered after a second: a loaded machine took
      // longer than that to lock it, and the `get` had recorded the file by then.
      bench.server.faults = FaultPlan(holdUntilReleased: true)
      let child = try bench.start()
      try await Awaiting.condition("the get's first request to reach the server") {
        bench.server.heldCount == 1
      }
      #expect(FileManager.default.fileExists(atPath: bench.lock.path), "it holds its lock")
      let lock = try DatabaseLock(
        path: bench.app.dataDirectory.appendingPathComponent("favorites.sqlite").path)
      bench.server.faults = .none
      #expect(bench.server.releaseHeld() == 1)
      // Not a throwing wait: the lock must be let go of whatever happens.
      #expect(await Self.eventually { bench.size(bench.target) == size }, "the file is published")
      child.kill(SIGKILL)
      _ = await child.wait(timeout: .seconds(60))
      lock.unlock()
      #expect(try await bench.libraryLines().isEmpty, "killed before the row was written")
      bench.server.faults = .none

      let requests = bench.server.fileRangeHeaders.count
      let next = try await bench.get()
      #expect(next.status == 0, "\(next)")
      #expect(next.outLines == [bench.target.path])
      #expect(bench.server.fileRangeHeaders.count == requests, "nothing fetched")
      let rows = try await bench.libraryLines()
      #expect(rows.count == 1)
      #expect(
        rows.first?.split(separator: "\t").map(String.init).prefix(4) == [
          "84", "epub", "present", "\(size)",
        ])
      let left = try FileManager.default.contentsOfDirectory(atPath: bench.app.root.path)
      #expect(left.filter { $0.hasPrefix("84-") } == [Self.name], "the mark is gone: \(left)")
    }
  }

  /// A file of another size at the target is not ours to adopt, mark or not.
  @Test func aFileOfTheWrongSizeIsNotAdopted() async throws {
    try await Self.with { bench in
      try BookFiles.serve84(on: bench.server, epubSize: 1_000)
      try Data("someone else's".utf8).write(to: bench.target)
      let mark = "{\"url\":\"\(bench.fileURL)\",\"size\":1000,\"validator\":\"\\\"v1\\\"\"}"
      try Data(mark.utf8).write(to: URL(fileURLWithPath: bench.target.path + ".done"))
      let run = try await bench.get()
      #expect(run.status == 1, "\(run)")
      #expect(
        run.errLines == ["error: \(bench.target.path) already exists (use --force to replace it)"])
      #expect(try await bench.libraryLines().isEmpty)
      #expect(try Data(contentsOf: bench.target) == Data("someone else's".utf8))
    }
  }
}
