import Foundation
import GutendexServer
import Terminal
import TestSupport

/// Figures 8 and 9: `gutenberg get` of a 500 MB file next to `curl -o` of the same loopback
/// file, the peak RSS while doing so, and the reader's first screen and jump on a 5 MB text.
enum DownloadBenchmark {
  /// Where the loopback server serves the generated EPUB of book 84, as PG's redirect target.
  static let filePath = "/cache/epub/84/pg84-images-3.epub"

  /// Figure 8, over http and then over https (a TLS front before the same server, a CA made
  /// for the run that curl and `gutenberg` both trust).
  static func download(_ context: BenchContext) async throws -> [ResultRow] {
    var rows = try await download(context, secure: false)
    let authority = try await TestCertificateAuthority.make()
    defer { authority.remove() }
    let front = try await TLSFront.start(backend: context.url, authority: authority)
    do {
      rows += try await download(context, secure: true, front: front, authority: authority)
    } catch {
      await front.stop()
      throw error
    }
    await front.stop()
    return rows
  }

  /// Figure 8 over one scheme.
  static func download(
    _ context: BenchContext, secure: Bool, front: TLSFront? = nil,
    authority: TestCertificateAuthority? = nil
  ) async throws -> [ResultRow] {
    let size = context.scale < 1 ? 200 * 1_048_576 : 500 * 1_048_576
    let runs = context.count(3, minimum: 2)
    let server = context.server
    server.redirect("/ebooks/84.epub3.images", to: filePath)
    server.serve(
      ServedFile(content: .generated(size: size), contentType: "application/epub+zip"),
      at: filePath)
    defer {
      server.removeFile(at: filePath)
    }
    let scheme = secure ? "https" : "http"
    Report.progress(
      "figure 8 (\(scheme)): \(runs) downloads each of \(size / 1_048_576) MB with curl and "
        + "gutenberg get")
    let directory = try context.dataDirectory("downloads")
    let data = try context.dataDirectory("download-data")
    let url = context.url.absoluteString
    let fileBase = (front?.url ?? context.url).absoluteString
    var environment = BenchRun.cleanEnvironment
    var curlTrust: [String] = []
    if let authority {
      // CURL_CA_BUNDLE would win over SSL_CERT_FILE (as in curl), and some machines export it
      // for the system's bundle.
      environment["CURL_CA_BUNDLE"] = nil
      environment["SSL_CERT_FILE"] = authority.certificatePath
      curlTrust = ["--cacert", authority.certificatePath]
    }
    var curl = Samples()
    var durableCurl = Samples()
    var get = Samples()
    var peaks = Samples()
    for _ in 0..<runs {
      let curlTarget = directory.appendingPathComponent("curl.epub").path
      let before = server.bodyBytesSent
      let fetched = try await BenchRun(
        executable: "/usr/bin/curl",
        arguments: ["-s"] + curlTrust + ["-o", curlTarget, fileBase + filePath]
      ).run(timeout: .seconds(300))
      try check(fetched, path: curlTarget, size: size, sent: server.bodyBytesSent - before)
      curl.append(fetched.seconds)
      try? FileManager.default.removeItem(atPath: curlTarget)

      // The same bytes made as durable as `get` makes them: it syncs the file before giving it
      // its name (curl -o does not, and syncing 500 MB costs about a second on this disk).
      let durableBefore = server.bodyBytesSent
      let durable = try await BenchRun(
        executable: "/bin/sh",
        arguments: [
          "-c", #"curl -s "$@" && sync "$2""#, "sh",
        ] + ["-o", curlTarget] + curlTrust + [fileBase + filePath]
      ).run(timeout: .seconds(300))
      try check(durable, path: curlTarget, size: size, sent: server.bodyBytesSent - durableBefore)
      durableCurl.append(durable.seconds)
      try? FileManager.default.removeItem(atPath: curlTarget)

      let sentBefore = server.bodyBytesSent
      let printed = context.scratch.appendingPathComponent("get.txt").path
      let outcome = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: [
          "get", "84", "--server", url, "--mirror", fileBase, "--data-dir", data.path, "-o",
          directory.path + "/", "--force", "--quiet",
        ], output: printed, environment: environment
      ).run(timeout: .seconds(300))
      let saved =
        (try? String(contentsOfFile: printed, encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
      try check(outcome, path: saved, size: size, sent: server.bodyBytesSent - sentBefore)
      get.append(outcome.seconds)
      peaks.append(outcome.peakRSS)
      try? FileManager.default.removeItem(atPath: saved)
    }
    let hello = try await context.helloPeaks()
    let megabytes = Double(size) / 1_048_576
    return [
      ResultRow(
        figure: "8. get \(Int(megabytes)) MB over loopback \(scheme)", unit: .seconds,
        samples: get,
        baselineName: "curl -o, then sync", baseline: durableCurl,
        target: .ratioAtMost(1 / 0.9),
        note: String(
          format: "gutenberg get %.0f MB/s, curl -o then sync %.0f MB/s, curl -o alone %.0f MB/s "
            + "(%.2fx; it leaves the file unsynced) (median runs, process start included)",
          megabytes / get.median, megabytes / durableCurl.median, megabytes / curl.median,
          get.median / curl.median)),
      ResultRow(
        figure: "8. peak RSS, get of \(Int(megabytes)) MB over \(scheme)", unit: .bytes,
        samples: peaks,
        baselineName: "bench-hello", baseline: hello, target: .atMost(64 * 1_048_576)),
    ]
  }

  /// The run succeeded, wrote `size` bytes at `path`, and the server sent them.
  private static func check(
    _ outcome: BenchRun.Outcome, path: String, size: Int, sent: Int
  ) throws {
    let written = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    guard outcome.exitStatus == 0, written == size, sent >= size else {
      throw BenchError(
        "download failed (status \(outcome.exitStatus), \(written ?? -1) bytes at '\(path)', "
          + "\(sent) sent)")
    }
  }

  /// Figure 9: the reader on a 5 MB text already on disk.
  static func reader(_ context: BenchContext) throws -> [ResultRow] {
    let file = context.scratch.appendingPathComponent("book.txt")
    let bytes = try writeBook(to: file, size: 5 * 1_048_576)
    let runs = context.count(30, minimum: 10)
    Report.progress("figure 9: reader on a \(bytes / 1_048_576) MB text, \(runs) runs")
    var open = Samples()
    var read = Samples()
    var firstLine = ""
    for _ in 0..<runs {
      read.append(try Stopwatch.time { _ = try Data(contentsOf: file) })
      open.append(
        try Stopwatch.time {
          let text = BookText(data: try Data(contentsOf: file))
          let pager = Pager(text: text, title: "Bench", width: 100, height: 40)
          firstLine = pager.lines(width: 100, style: .plain).first ?? ""
        })
    }
    guard firstLine == "Chapter 1" else {
      throw BenchError("the reader's first line is '\(firstLine)', not the text after the header")
    }
    var pager = Pager(
      text: BookText(data: try Data(contentsOf: file)), title: "Bench", width: 100, height: 40)
    var jump = Samples()
    var render = Samples()
    let jumps = context.count(100, minimum: 20)
    for _ in 0..<jumps {
      pager.go(percent: 0)
      render.append(Stopwatch.time { _ = pager.lines(width: 100, style: .plain) })
      jump.append(
        Stopwatch.time {
          pager.go(percent: 90)
          _ = pager.lines(width: 100, style: .plain)
        })
    }
    guard pager.percent >= 89 else { throw BenchError("the jump landed at \(pager.percent)%") }
    return [
      ResultRow(
        figure: "9. reader: first screen of 5 MB text", unit: .seconds, samples: open,
        baselineName: "read the file", baseline: read, target: .atMost(0.050),
        note: "\(pager.visibleLines.count) lines of text, header and licence folded"),
      ResultRow(
        figure: "9. reader: jump to 90%", unit: .seconds, samples: jump,
        baselineName: "draw a page", baseline: render, target: .atMost(0.020)),
    ]
  }

  /// A Project Gutenberg-like text of about `size` bytes: header, chapters of prose with some
  /// Japanese and accented lines, licence.
  private static func writeBook(to file: URL, size: Int) throws -> Int {
    var text = "The Project Gutenberg eBook of Bench\r\n\r\nTitle: Bench\r\n\r\n"
    text += "*** START OF THE PROJECT GUTENBERG EBOOK BENCH ***\r\n\r\nChapter 1\r\n\r\n"
    let prose =
      "It was a dark and stormy night; the rain fell in torrents, except at occasional\r\n"
      + "intervals, when it was checked by a violent gust of wind which swept up the streets.\r\n"
    let japanese = "日本語の行はスペースがないので文字の間で折り返されます。カフェ・オ・レ。\r\n"
    var chapter = 1
    while text.utf8.count < size {
      for paragraph in 0..<20 {
        text += prose + (paragraph % 5 == 0 ? japanese : "") + "\r\n"
      }
      chapter += 1
      text += "Chapter \(chapter)\r\n\r\n"
    }
    text += "*** END OF THE PROJECT GUTENBERG EBOOK BENCH ***\r\n\r\n"
    text += String(repeating: "Project Gutenberg licence text.\r\n", count: 350)
    let data = Data(text.utf8)
    try data.write(to: file)
    return data.count
  }
}
