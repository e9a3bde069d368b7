import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Downloads under faults, with the real binary: cuts and resumes, servers without Range or
/// with a changed file, a full disk, Ctrl-C, stalls, redirects, 5xx, and sizes from 0 bytes to
/// 500 MB. Book metadata comes from the embedded catalogue (`--source embedded`), so every
/// fault hits the file transfer itself. Each row runs over http and over https (a TLS front
/// before the same server, the binary trusting its test CA through `SSL_CERT_FILE`).
@Suite(.serialized, .ownThread)
struct DownloadFaultTests {
  static let name = "84-frankenstein-or-the-modern-prometheus.epub"

  /// A file server for book 84, reached over a scheme, and a binary that fetches from it.
  struct Row {
    let server: LoopbackServer
    let front: ServerFront
    let app: Gutenberg

    /// What the binary is pointed at: the server, or the TLS front before it.
    var url: URL { front.url }

    static func start(_ scheme: Scheme) async throws -> Row {
      let server = LoopbackServer(handler: try Fixture.engine())
      let front: ServerFront
      do {
        front = try await ServerFront.start(scheme, backend: try await server.start())
      } catch {
        await server.stop()
        throw error
      }
      return Row(server: server, front: front, app: try Gutenberg().mirrored(to: front))
    }

    func finish() async {
      await front.stop()
      await server.stop()
      app.cleanUp()
    }

    var target: URL { app.root.appendingPathComponent(DownloadFaultTests.name) }
    var part: URL { URL(fileURLWithPath: target.path + ".part") }

    func get(_ extra: [String] = [], shellPrefix: String = "") async throws -> Gutenberg.Run {
      try await app.run(
        ["get", "84", "--source", "embedded"] + extra, inputData: Data(),
        shellPrefix: shellPrefix, timeout: .seconds(120))
    }

    func size(_ url: URL) -> Int? {
      (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
    }

    func libraryLines() async throws -> [String] {
      try await app.run(["library"]).outLines
    }
  }

  static func with(_ scheme: Scheme, _ body: (Row) async throws -> Void) async throws {
    let row = try await Row.start(scheme)
    do {
      try await body(row)
    } catch {
      await row.finish()
      throw error
    }
    await row.finish()
  }

  static func resumeHint(_ row: Row) -> String {
    "the partial file \(row.target.path).part is kept: run `gutenberg get 84` to resume"
  }

  @Test(arguments: Scheme.allCases) func aCutTransferIsKeptAndTheNextGetResumesWithRange(
    scheme: Scheme
  ) async throws {
    try await Self.with(scheme) { row in
      let size = 2_000_000
      try BookFiles.serve84(on: row.server, epubSize: size)
      row.server.faults = FaultPlan(truncateBody: true)
      let cut = try await row.get(["--timeout", "5"])
      #expect(cut.status == 69, "\(cut)")
      #expect(cut.errLines.count == 1, "\(cut)")
      #expect(cut.err.hasSuffix(Self.resumeHint(row) + "\n"), "\(cut)")
      let kept = try #require(row.size(row.part))
      #expect(kept > size / 2 && kept < size, "retries resumed: \(kept)")
      #expect(row.server.fileRangeHeaders.count == 4, "four attempts")
      #expect(try await row.libraryLines().isEmpty, "nothing half done in the library")

      row.server.faults = .none
      let sentBefore = row.server.bodyBytesSent
      let resumed = try await row.get()
      #expect(resumed.status == 0, "\(resumed)")
      #expect(resumed.outLines == [row.target.path])
      #expect(row.server.fileRangeHeaders.last == "bytes=\(kept)-")
      #expect(row.server.bodyBytesSent - sentBefore == size - kept, "only the rest was sent")
      #expect(
        try Data(contentsOf: row.target) == ServedFile.generatedBytes(offset: 0, count: size))
      #expect(row.size(row.part) == nil)
      #expect(try await row.libraryLines().count == 1)
    }
  }

  @Test(arguments: Scheme.allCases) func aServerThatStopsTakingRangesGetsAFreshDownload(
    scheme: Scheme
  ) async throws {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server, epubSize: 500_000)
      row.server.faults = FaultPlan(truncateBody: true)
      _ = try await row.get(["--timeout", "5"])
      #expect(row.size(row.part) != nil)
      row.server.faults = .none
      let epubPath = "/cache/epub/84/pg84-images-3.epub"
      row.server.serve(
        ServedFile(content: .generated(size: 500_000), supportsRanges: false), at: epubPath)
      let fresh = try await row.get()
      #expect(fresh.status == 0, "\(fresh)")
      #expect(row.server.fileRangeHeaders.last??.hasPrefix("bytes=") == true, "it asked")
      #expect(
        try Data(contentsOf: row.target) == ServedFile.generatedBytes(offset: 0, count: 500_000))
    }
  }

  @Test(arguments: Scheme.allCases) func withoutRangeSupportACutLeavesNothing(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(
        on: row.server, epub: ServedFile(content: .generated(size: 300_000), supportsRanges: false))
      row.server.faults = FaultPlan(truncateBody: true)
      let cut = try await row.get(["--timeout", "5"])
      #expect(cut.status == 69, "\(cut)")
      #expect(!row.server.fileRangeHeaders.isEmpty, "the cut came from the server: \(cut)")
      #expect(!cut.err.contains("kept"), "\(cut)")
      let left = try FileManager.default.contentsOfDirectory(atPath: row.app.root.path)
      #expect(!left.contains { $0.hasPrefix("84-") }, "\(left)")
    }
  }

  @Test(arguments: Scheme.allCases) func aChangedFileIsFetchedAgainInFull(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server, epubSize: 400_000)
      row.server.faults = FaultPlan(truncateBody: true)
      _ = try await row.get(["--timeout", "5"])
      #expect(row.size(row.part) != nil)
      row.server.faults = .none
      let changed = Data(repeating: 42, count: 123_456)
      row.server.serve(
        ServedFile(content: .bytes(changed), etag: "\"v2\""),
        at: "/cache/epub/84/pg84-images-3.epub")
      let fresh = try await row.get()
      #expect(fresh.status == 0, "\(fresh)")
      #expect(try Data(contentsOf: row.target) == changed)
      let json = try await row.app.run(["library", "--json"])
      let rows = try #require(
        try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
      #expect(rows.first?["validator"] as? String == "\"v2\"")
      #expect(rows.first?["size"] as? Int == 123_456)
    }
  }

  /// A full disk, stood in for by `ulimit -f` (512-byte blocks in dash; SIGXFSZ ignored so the
  /// write fails with EFBIG instead of killing the process).
  @Test(arguments: Scheme.allCases) func aFullDiskKeepsOnlyAResumablePart(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { row in
      let size = 1_000_000
      try BookFiles.serve84(on: row.server, epubSize: size)
      let limit = "trap '' XFSZ; ulimit -f 400; "
      let full = try await row.get(shellPrefix: limit)
      #expect(full.status == 1, "\(full)")
      #expect(full.errLines.count == 1, "\(full)")
      #expect(full.err.contains("file too large"), "\(full)")
      #expect(full.err.hasSuffix(Self.resumeHint(row) + "\n"), "\(full)")
      #expect(!FileManager.default.fileExists(atPath: row.target.path))
      #expect(try await row.libraryLines().isEmpty)
      let resumed = try await row.get()
      #expect(resumed.status == 0, "\(resumed)")
      #expect(row.server.fileRangeHeaders.last == "bytes=\(400 * 512)-")
      #expect(
        try Data(contentsOf: row.target) == ServedFile.generatedBytes(offset: 0, count: size))
    }
  }

  @Test(arguments: Scheme.allCases) func aFullDiskWithoutRangeSupportLeavesNoFile(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(
        on: row.server,
        epub: ServedFile(content: .generated(size: 1_000_000), supportsRanges: false))
      let full = try await row.get(shellPrefix: "trap '' XFSZ; ulimit -f 400; ")
      #expect(full.status == 1, "\(full)")
      #expect(!full.err.contains("kept"), "\(full)")
      let left = try FileManager.default.contentsOfDirectory(atPath: row.app.root.path)
      #expect(!left.contains { $0.hasPrefix("84-") }, "\(left)")
    }
  }

  @Test(arguments: Scheme.allCases) func ctrlCKeepsThePartAndSaysHowToResume(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server, epubSize: 600_000)
      row.server.faults = FaultPlan(stallMidBody: true)
      // Ctrl-C ends the stall, not the stall timeout (30 s by default), which on a loaded
      // machine could pass before the test sees the part.
      let child = try row.app.start(["get", "84", "--source", "embedded", "--timeout", "600"])
      child.closeInput()
      try await Awaiting.condition("the part to hold the 300000 bytes sent before the stall") {
        row.size(row.part) == 300_000
      }
      child.kill(SIGINT)
      let exit = await child.wait(timeout: .seconds(60))
      let err = String(decoding: child.stderr, as: UTF8.self)
      // 130 = 128 + SIGINT, as a shell reports a command stopped by Ctrl-C.
      #expect(exit.code == 130, "\(exit) \(err)")
      #expect(err == "error: interrupted after 300000 bytes; \(Self.resumeHint(row))\n")
      row.server.faults = .none
      let resumed = try await row.get()
      #expect(resumed.status == 0, "\(resumed)")
      #expect(row.server.fileRangeHeaders.last == "bytes=300000-")
      #expect(
        try Data(contentsOf: row.target) == ServedFile.generatedBytes(offset: 0, count: 600_000))
    }
  }

  @Test(arguments: Scheme.allCases) func ctrlCAtThePromptStopsTheDownloadAndTheBrowserGoesOn(
    scheme: Scheme
  ) async throws {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server, epubSize: 600_000)
      row.server.faults = FaultPlan(stallMidBody: true)
      let child = try row.app.start(["--server", row.url.absoluteString, "--timeout", "600"])
      await child.send("/ frankenstein")
      await child.send("d 1")
      // The browser's `d` saves into the library's directory, `<data>/books`.
      let books = row.app.dataDirectory.appendingPathComponent("books", isDirectory: true)
      let part = books.appendingPathComponent(DownloadFaultTests.name + ".part")
      try await Awaiting.condition("the part to hold the 300000 bytes sent before the stall") {
        row.size(part) == 300_000
      }
      child.kill(SIGINT)
      // The browser was given `--server`: the resume line repeats it (issue 27).
      let message =
        "error: interrupted after 300000 bytes; the partial file \(part.path) is kept: run "
        + "`gutenberg get 84 -o \(books.path)/ --server \(row.url.absoluteString)` to resume"
      try await Awaiting.condition("the browser to report the interrupted download: \(message)") {
        String(decoding: child.stderr, as: UTF8.self).contains(message)
      }
      await child.send("F")
      #expect(await child.waitForOutput { $0.contains("Favourites") })
      await child.send("q")
      let exit = await child.wait(timeout: .seconds(60))
      #expect(exit.code == 0, "\(exit) \(String(decoding: child.stderr, as: UTF8.self))")
      #expect(row.size(part) == 300_000, "the part is kept for a later get")
    }
  }

  @Test(arguments: Scheme.allCases) func aStallIsATimeoutThatKeepsTheBytes(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server, epubSize: 200_000)
      row.server.faults = FaultPlan(stallMidBody: true)
      let stalled = try await row.get(["--timeout", "1"])
      #expect(stalled.status == 69, "\(stalled)")
      #expect(
        stalled.err
          == "error: 127.0.0.1 sent nothing for 1 s; 100000 bytes received so far; "
          + Self.resumeHint(row) + "\n", "\(stalled)")
      #expect(row.size(row.part) == 100_000)
    }
  }

  @Test(arguments: Scheme.allCases) func serverErrorsAreRetried(scheme: Scheme) async throws {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server, epubSize: 10_000)
      row.server.faults = FaultPlan(statusScript: [
        ScriptedResponse(status: 503), ScriptedResponse(status: 429, headers: ["Retry-After": "0"]),
      ])
      let run = try await row.get()
      #expect(run.status == 0, "\(run)")
      #expect(row.size(row.target) == 10_000)
      row.server.faults = FaultPlan(
        statusScript: Array(repeating: ScriptedResponse(status: 503), count: 4))
      let failed = try await row.get(["--force"])
      #expect(failed.status == 69, "\(failed)")
      #expect(failed.errLines.count == 1, "\(failed)")
      #expect(failed.err.contains("server error (HTTP 503)"), "\(failed)")
    }
  }

  @Test(arguments: Scheme.allCases) func redirectChainsAreFollowedAndForeignOnesRefused(
    scheme: Scheme
  ) async throws {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server, epubSize: 1_000)
      // Four hops: the format URL, two mirrors, then the file.
      row.server.redirect("/ebooks/84.epub3.images", to: "/mirror/a")
      row.server.redirect("/mirror/a", to: "/mirror/b", status: 307)
      row.server.redirect("/mirror/b", to: "/cache/epub/84/pg84-images-3.epub", status: 301)
      let followed = try await row.get()
      #expect(followed.status == 0, "\(followed)")
      #expect(row.size(row.target) == 1_000)

      row.server.redirect("/ebooks/84.epub3.images", to: "http://example.invalid/84.epub")
      let foreign = try await row.get(["--force"])
      #expect(foreign.status == 69, "\(foreign)")
      // From https, a move to http is a downgrade; from http, http is only followed locally.
      let reason =
        scheme == .https
        ? "a downgrade from https to http" : "only https is followed (http only on this machine)"
      #expect(
        foreign.err
          == "error: refused redirect from 127.0.0.1 to http://example.invalid/84.epub: \(reason)\n",
        "\(foreign)")

      for hop in 0..<6 { row.server.redirect("/loop/\(hop)", to: "/loop/\(hop + 1)") }
      row.server.redirect("/ebooks/84.epub3.images", to: "/loop/0")
      let looping = try await row.get(["--force"])
      #expect(looping.status == 69, "\(looping)")
      #expect(looping.err.contains("too many redirects (more than 5)"), "\(looping)")
      #expect(try Data(contentsOf: row.target).count == 1_000, "the earlier file is untouched")
    }
  }

  @Test(arguments: Scheme.allCases) func anEmptyFileIsAValidDownload(scheme: Scheme) async throws {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server, epub: ServedFile(content: .bytes(Data())))
      let run = try await row.get()
      #expect(run.status == 0, "\(run)")
      #expect(row.size(row.target) == 0)
      #expect(try await row.libraryLines().first?.split(separator: "\t")[3] == "0")
    }
  }

  @Test(arguments: Scheme.allCases) func offlineRefusesToDownload(scheme: Scheme) async throws {
    try await Self.with(scheme) { row in
      try BookFiles.serve84(on: row.server)
      let run = try await row.app.run(["get", "84", "--offline"])
      #expect(run.status == 69, "\(run)")
      #expect(
        run.errLines == [
          "error: offline: downloading book 84 needs the network (without --offline); "
            + "a --mirror is reached over the network too"
        ])
      #expect(row.server.requestCount == 0)
    }
  }

  /// 500 MB generated by the server as it is sent: the download streams to disk, so the
  /// binary's peak RSS stays under 64 MiB.
  @Test(arguments: Scheme.allCases) func fiveHundredMegabytesWithBoundedMemory(scheme: Scheme)
    async throws
  {
    try await Self.with(scheme) { row in
      let size = 500 * 1_048_576
      try BookFiles.serve84(on: row.server, epubSize: size)
      // The book from the loopback API, not `--source embedded`: decoding the whole embedded
      // catalogue has a peak of its own that says nothing about downloading.
      // The peak is read from /proc while the child runs (VmHWM), as the bench does: wait4's
      // ru_maxrss can carry over this test runner's own peak from before the exec.
      let child = try row.app.start(["get", "84", "--quiet", "--server", row.url.absoluteString])
      child.closeInput()
      var peak = 0
      let deadline = ContinuousClock.now + .seconds(300)
      while ContinuousClock.now < deadline {
        guard let sample = child.peakRSSKiB() else { break }
        peak = max(peak, sample)
        try await Task.sleep(for: .milliseconds(5))
      }
      let exit = await child.wait(timeout: .seconds(60))
      #expect(exit.code == 0, "\(exit) \(String(decoding: child.stderr, as: UTF8.self))")
      #expect(row.size(row.target) == size)
      #expect(peak > 0 && peak < 64 * 1024, "peak RSS \(peak) KiB")
      let handle = try FileHandle(forReadingFrom: row.target)
      defer { try? handle.close() }
      for offset in [0, 123_456_789, size - 4096] {
        try handle.seek(toOffset: UInt64(offset))
        let chunk = try handle.read(upToCount: 4096)
        #expect(chunk == ServedFile.generatedBytes(offset: offset, count: 4096), "at \(offset)")
      }
      try? FileManager.default.removeItem(at: row.target)
    }
  }
}
