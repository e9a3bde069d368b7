import Foundation
import Terminal

/// Figure 12: the reader on 50 MB texts, one with the whole body on one line and one with
/// 800,000 short lines: the first screen, one page turn, and the peak RSS of a process that
/// opens the text and draws both.
enum ReaderBenchmark {
  /// The two shapes of text.
  enum Shape: String, CaseIterable {
    case oneLine = "one line"
    case manyLines = "many lines"
  }

  /// `--reader-child PATH`: the process whose peak RSS is measured.
  static func childPath(_ arguments: ArraySlice<String>) -> String? {
    guard let index = arguments.firstIndex(of: "--reader-child"),
      arguments.index(after: index) < arguments.endIndex
    else { return nil }
    return arguments[arguments.index(after: index)]
  }

  /// Opens the text at `path`, draws the first screen, turns a page and draws it: 0 when the
  /// first screen starts with the body's first line.
  static func child(path: String, reflow: Bool = false) -> Int32 {
    if reflow { return ReflowBenchmark.child(path: path) }
    guard let text = try? BookText(contentsOfFile: path) else { return 2 }
    var pager = Pager(text: text, title: "Bench", width: 80, height: 22)
    let first = pager.lines(width: 80, style: .plain).first
    guard pager.nextPage() else { return 3 }
    _ = pager.lines(width: 80, style: .plain)
    return first == "Chapter 1" ? 0 : 1
  }

  /// Figure 12.
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let size = context.scale < 1 ? 20 * 1_048_576 : 50 * 1_048_576
    let runs = context.count(10, minimum: 3)
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let hello = try await context.helloPeaks()
    var rows: [ResultRow] = []
    for shape in Shape.allCases {
      let file = context.scratch.appendingPathComponent("reader-\(shape == .oneLine ? 1 : 2).txt")
      let lines = try write(shape, to: file, size: size)
      let megabytes = size / 1_048_576
      Report.progress(
        "figure 13: reader on a \(megabytes) MB text on \(shape.rawValue), \(runs) runs")
      var read = Samples()
      var less = Samples()
      var open = Samples()
      var turn = Samples()
      var redraw = Samples()
      var firstLine = ""
      for _ in 0..<runs {
        read.append(try Stopwatch.time { _ = try Data(contentsOf: file) })
        less.append(try Stopwatch.time { _ = try lessFirstScreen(file.path) })
        var pager: Pager?
        open.append(
          try Stopwatch.time {
            let text = try BookText(contentsOfFile: file.path)
            let opened = Pager(text: text, title: "Bench", width: 80, height: 22)
            firstLine = opened.lines(width: 80, style: .plain).first ?? ""
            pager = opened
          })
        guard var pager else { throw BenchError("the reader did not open") }
        redraw.append(Stopwatch.time { _ = pager.lines(width: 80, style: .plain) })
        turn.append(
          Stopwatch.time {
            pager.nextPage()
            _ = pager.lines(width: 80, style: .plain)
          })
      }
      guard firstLine == "Chapter 1" else {
        throw BenchError("the reader's first line is '\(firstLine)', not the body's")
      }
      var peaks = Samples()
      for _ in 0..<3 {
        let outcome = try await BenchRun(
          executable: executable, arguments: ["--reader-child", file.path]
        ).run(timeout: .seconds(60))
        guard outcome.exitStatus == 0 else {
          throw BenchError("the reader child failed (\(outcome.exitStatus))")
        }
        peaks.append(outcome.peakRSS)
      }
      try? FileManager.default.removeItem(at: file)
      let name = "13. reader, \(megabytes) MB on \(shape.rawValue)"
      rows += [
        ResultRow(
          figure: "\(name): first screen", unit: .seconds, samples: open,
          baselineName: "less-style first screen", baseline: less, target: .atMost(0.030),
          note:
            "\(TextFormat.grouped(lines)) lines; mapped, the first blocks indexed, 80×22 drawn "
            + "(read the file whole: \(String(format: "%.2f ms", read.median * 1e3)))"),
        ResultRow(
          figure: "\(name): page turn", unit: .seconds, samples: turn,
          baselineName: "redraw the page", baseline: redraw, target: .atMost(0.002)),
        ResultRow(
          figure: "\(name): peak RSS", unit: .bytes, samples: peaks,
          baselineName: "bench-hello", baseline: hello, target: .atMost(64 * 1_048_576)),
      ]
    }
    return rows + (try await ReflowBenchmark.run(context))
  }

  /// What `less +q` costs for a first screen, as a baseline: open the file, read its first
  /// 64 KiB and cut 22 lines of 80 columns from them (less reads no more before it draws).
  private static func lessFirstScreen(_ path: String) throws -> [String] {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let start = try handle.read(upToCount: 64 * 1024) ?? Data()
    var rows: [String] = []
    for line in start.split(separator: 0x0A, omittingEmptySubsequences: false) {
      var text = String(decoding: line, as: UTF8.self)
      while !text.isEmpty, rows.count < 22 {
        rows.append(String(text.prefix(80)))
        text = String(text.dropFirst(80))
      }
      if rows.count >= 22 { break }
    }
    return rows
  }

  /// A PG-style text of about `size` bytes whose body is `Chapter 1` then prose, on one line or
  /// on lines of about 64 bytes; returns the number of lines.
  private static func write(_ shape: Shape, to file: URL, size: Int) throws -> Int {
    guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
      throw BenchError("cannot create \(file.path)")
    }
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    var lines = 0
    func put(_ text: String) throws {
      lines += text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      try handle.write(contentsOf: Data(text.utf8))
    }
    try put(
      "The Project Gutenberg eBook of Bench\r\n\r\n*** START OF THE PROJECT GUTENBERG EBOOK BENCH"
        + " ***\r\n\r\nChapter 1\r\n\r\n")
    let sentence = "It was a dark and stormy night; the rain fell in torrents, except"
    let separator = shape == .oneLine ? " " : "\r\n"
    let block = Array(repeating: sentence, count: 16_384).joined(separator: separator) + separator
    var written = 0
    while written < size {
      try put(block)
      written += block.utf8.count
    }
    try put("\r\n\r\n*** END OF THE PROJECT GUTENBERG EBOOK BENCH ***\r\n\r\n")
    try put(String(repeating: "Project Gutenberg licence text.\r\n", count: 350))
    return lines
  }
}
