import Catalog
import Foundation
import GutendexServer
import TestSupport

/// Figure 22: progress sync and `send`. The reader's first page with progress sync on, against
/// a kosync server that answers and one that stalls (`--timeout 1`), next to the same read with
/// sync off; the requests the server got before the first page; and `send` of a 5 MB EPUB to a
/// folder next to `cp` of the same file.
enum ProgressBenchmark {
  static let timeout = 1.0

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let runs = context.count(10, minimum: 3)
    let files = LoopbackServer(handler: context.engine)
    let filesURL = try await files.start()
    defer { Task { await files.stop() } }
    let epub = EPUBFixture.make(
      id: 84, title: "Frankenstein", chapters: 20, chapterBytes: 100_000,
      imageBytes: 3_000_000, seed: 84)
    files.redirect("/ebooks/84.epub3.images", to: "/cache/epub/84/pg84-images-3.epub")
    files.serve(
      ServedFile(content: .bytes(epub), contentType: "application/epub+zip"),
      at: "/cache/epub/84/pg84-images-3.epub")
    let prose = String(
      repeating: "It was on a dreary night of November that I beheld.\r\n", count: 8_000)
    let text =
      "The Project Gutenberg eBook of Frankenstein\r\n\r\n*** START OF THE PROJECT GUTENBERG "
      + "EBOOK FRANKENSTEIN ***\r\n\r\nLetter 1\r\n\r\n\(prose)\r\n*** END OF THE PROJECT "
      + "GUTENBERG EBOOK FRANKENSTEIN ***\r\n"
    files.redirect("/ebooks/84.txt.utf-8", to: "/cache/epub/84/pg84.txt")
    files.serve(
      ServedFile(content: .bytes(Data(text.utf8)), contentType: "text/plain; charset=utf-8"),
      at: "/cache/epub/84/pg84.txt")
    let double = KOSyncDouble()
    double.addUser("bench", key: MD5.hex("bench password"))
    let sync = LoopbackServer(handler: double)
    let syncURL = try await sync.start()
    defer { Task { await sync.stop() } }

    let plain = try context.dataDirectory("progress-off")
    let synced = try context.dataDirectory("progress-on")
    func environment(_ data: URL) -> [String: String] {
      BenchRun.cleanEnvironment.merging(
        [
          "GUTENBERG_DATA_DIR": data.path, "GUTENBERG_MIRROR": filesURL.absoluteString,
          "NO_COLOR": "1", "HOME": data.path, "COLUMNS": "80", "LINES": "24",
        ], uniquingKeysWith: { $1 })
    }
    func gutenberg(_ data: URL, _ arguments: [String], input: String) async throws -> ChildProcess {
      let child = try ChildProcess(
        executable: context.binaries.gutenberg, arguments: arguments,
        environment: environment(data))
      await child.write(Data(input.utf8))
      child.closeInput()
      _ = await child.wait(timeout: .seconds(120))
      return child
    }
    let read = ["read", "84", "--pager", "--server", context.url.absoluteString]
    _ = try await gutenberg(
      synced, ["progress", "login", syncURL.absoluteString, "bench"], input: "bench password\n")
    for data in [plain, synced] {
      let first = try await gutenberg(data, read, input: "q\n")
      guard first.stdoutText.contains(" · line ") else {
        throw BenchError(
          "the reader did not open: \(String(decoding: first.stderr, as: UTF8.self))")
      }
    }

    /// Seconds from spawn to the first page, and the kosync requests made by then.
    func firstPage(_ data: URL, extra: [String] = []) async throws -> (Double, Int) {
      let before = sync.requestCount
      let started = ContinuousClock.now
      let child = try ChildProcess(
        executable: context.binaries.gutenberg, arguments: read + extra,
        environment: environment(data))
      guard await child.waitForOutput(timeout: .seconds(60), { $0.contains(" · line ") }) else {
        throw BenchError("no first page: \(String(decoding: child.stderr, as: UTF8.self))")
      }
      let seconds = Stopwatch.seconds(ContinuousClock.now - started)
      let requests = sync.requestCount - before
      await child.write(Data("q\n".utf8))
      child.closeInput()
      _ = await child.wait(timeout: .seconds(60))
      sync.releaseHeld()
      return (seconds, requests)
    }
    Report.progress("figure 22: the reader's first page with progress sync, \(runs) runs each")
    var off = Samples()
    var on = Samples()
    var stalled = Samples()
    var added = Samples()
    var requests = Samples()
    for _ in 0..<runs {
      off.append(try await firstPage(plain).0)
      let answered = try await firstPage(synced)
      on.append(answered.0)
      requests.append(Double(answered.1))
      sync.faults = FaultPlan(holdUntilReleased: true)
      let held = try await firstPage(synced, extra: ["--timeout", String(timeout)])
      sync.faults = FaultPlan()
      stalled.append(held.0)
      requests.append(Double(held.1))
    }
    for value in stalled.values { added.append(value - off.median) }

    Report.progress("figure 22: send of a 5 MB EPUB to a folder against cp, \(runs) runs")
    let big = EPUBFixture.make(
      id: 84, title: "Frankenstein", chapters: 10, chapterBytes: 100_000, imageBytes: 4_200_000,
      seed: 5)
    files.serve(
      ServedFile(content: .bytes(big), contentType: "application/epub+zip"),
      at: "/cache/epub/84/pg84-images-3.epub")
    let sender = try context.dataDirectory("send")
    let device = try context.dataDirectory("send-device")
    let copies = try context.dataDirectory("cp-device")
    _ = try await gutenberg(
      sender, ["send", "84", "--to", copies.path, "--server", context.url.absoluteString], input: ""
    )
    let library = sender.appendingPathComponent("books")
    guard
      let name = try FileManager.default.contentsOfDirectory(atPath: library.path).first(where: {
        $0.hasSuffix(".epub")
      })
    else { throw BenchError("send did not fetch the EPUB") }
    let source = library.appendingPathComponent(name).path
    var send = Samples()
    var copy = Samples()
    var copySynced = Samples()
    for _ in 0..<runs {
      try? FileManager.default.removeItem(at: device.appendingPathComponent("pg84-images-3.epub"))
      try? FileManager.default.removeItem(at: copies.appendingPathComponent("pg84-images-3.epub"))
      let cp = try await BenchRun(
        executable: "/bin/cp",
        arguments: [source, copies.appendingPathComponent("pg84-images-3.epub").path],
        environment: environment(sender)
      ).run(timeout: .seconds(60))
      let sent = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: ["send", "84", "--to", device.path, "--server", context.url.absoluteString],
        environment: environment(sender)
      ).run(timeout: .seconds(60))
      guard cp.exitStatus == 0, sent.exitStatus == 0 else {
        throw BenchError("cp (\(cp.exitStatus)) or send (\(sent.exitStatus)) failed")
      }
      copy.append(cp.seconds)
      send.append(sent.seconds)
      // cp with the durability send gives: the file's bytes on the disk (coreutils' `sync
      // FILE` fsyncs that one file) before it counts as copied.
      let target = copies.appendingPathComponent("pg84-images-3.epub").path
      try? FileManager.default.removeItem(atPath: target)
      let synced = try await BenchRun(
        executable: "/bin/sh",
        arguments: ["-c", "cp \"$1\" \"$2\" && sync \"$2\"", "sh", source, target],
        environment: environment(sender)
      ).run(timeout: .seconds(60))
      guard synced.exitStatus == 0 else { throw BenchError("cp && sync failed") }
      copySynced.append(synced.seconds)
    }
    let copied = try Data(contentsOf: device.appendingPathComponent("pg84-images-3.epub"))
    guard copied == big else { throw BenchError("send did not copy the whole file") }
    // The copy itself, as `send` makes it (unnamed file, copy_file_range, fsync, link), in
    // this process: what is left of `send` once the program has started.
    var inProcess = Samples()
    for _ in 0..<runs {
      try? FileManager.default.removeItem(at: device.appendingPathComponent("pg84-images-3.epub"))
      inProcess.append(
        try Stopwatch.time {
          _ = try DeviceCopy.copy(
            source: source, to: device.path, name: "pg84-images-3.epub", replace: false)
        })
    }
    let megabytes = String(format: "%.1f MB", Double(big.count) / 1e6)
    return [
      ResultRow(
        figure: "22. read with progress sync: first page", unit: .seconds, samples: on,
        baselineName: "sync off", baseline: off, target: .none,
        note: "one pull from a loopback kosync server before the page (libcurl is loaded for it)"),
      ResultRow(
        figure: "22. stalled kosync server (--timeout 1): wait added before the first page",
        unit: .seconds, samples: added, baselineName: "the request timeout",
        baseline: Samples([timeout]), target: .ratioAtMost(1.1),
        note: String(
          format: "first page after %.2f s (median), sync off %.2f s", stalled.median, off.median)),
      ResultRow(
        figure: "22. kosync requests before the first page", unit: .count, samples: requests,
        baselineName: "target", baseline: Samples([1]), target: .atMost(1)),
      ResultRow(
        figure: "22. send's copy of a \(megabytes) EPUB to a folder", unit: .seconds,
        samples: inProcess, baselineName: "cp", baseline: copy, target: .ratioAtMost(1.2),
        note:
          "DeviceCopy as send runs it (O_TMPFILE, copy_file_range, fsync, link), against the /bin/cp process"
      ),
      ResultRow(
        figure: "22. send's copy of a \(megabytes) EPUB to a folder, against a synced cp",
        unit: .seconds, samples: inProcess, baselineName: "cp && sync FILE",
        baseline: copySynced, target: .ratioAtMost(1.2),
        note: "the same durability on both sides: the file's bytes on the disk before it counts"),
      ResultRow(
        figure: "22. gutenberg send of a \(megabytes) EPUB to a folder", unit: .seconds,
        samples: send, baselineName: "cp", baseline: copy, target: .none,
        note: "whole processes: the program's start and the library's lookup come before the copy"),
    ]
  }
}
