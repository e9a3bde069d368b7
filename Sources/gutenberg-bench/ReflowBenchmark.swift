import Foundation
import Terminal

/// Figure 13's reflow rows (issue 37): a 5 MB book in Project Gutenberg's shape (prose wrapped
/// at 70 columns in paragraphs, stanzas of verse set in between) read whole, every row of every
/// page, at 80 and 120 columns; a page turn after that; a resize that cuts the page again; and
/// the peak RSS of a process that reflows the whole text.
enum ReflowBenchmark {
  /// `--reader-child PATH --reflow`: reads the whole text at 80 columns, page after page.
  static func child(path: String) -> Int32 {
    guard let text = try? BookText(contentsOfFile: path) else { return 2 }
    var pager = Pager(text: text, title: "Bench", width: 80, height: 22)
    var rows = 0
    repeat { rows += pager.page().rows.count } while pager.nextPage()
    return rows > 10_000 ? 0 : 1
  }

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let size = context.scale < 1 ? 2 * 1_048_576 : 5 * 1_048_576
    let runs = context.count(7, minimum: 3)
    let file = context.scratch.appendingPathComponent("reflow.txt")
    try write(to: file, size: size)
    defer { try? FileManager.default.removeItem(at: file) }
    let megabytes = size / 1_048_576
    Report.progress("figure 13: reflow of a \(megabytes) MB book, \(runs) runs")
    var split = Samples()
    var whole: [Int: Samples] = [80: Samples(), 120: Samples()]
    var turn = Samples()
    var redraw = Samples()
    var recut = Samples()
    for _ in 0..<runs {
      split.append(try Stopwatch.time { _ = try lines(of: file).count })
      for width in [80, 120] {
        var pages = 0
        whole[width]?.append(
          try Stopwatch.time {
            let text = try BookText(contentsOfFile: file.path)
            var pager = Pager(text: text, title: "Bench", width: width, height: 22)
            repeat {
              _ = pager.page()
              pages += 1
            } while pager.nextPage()
          })
        guard pages > 1_000 else { throw BenchError("only \(pages) pages at \(width)") }
      }
      let text = try BookText(contentsOfFile: file.path)
      var pager = Pager(text: text, title: "Bench", width: 120, height: 22)
      pager.go(percent: 60)
      _ = pager.lines(width: 120, style: .plain)
      redraw.append(Stopwatch.time { _ = pager.lines(width: 120, style: .plain) })
      turn.append(
        Stopwatch.time {
          pager.nextPage()
          _ = pager.lines(width: 120, style: .plain)
        })
      recut.append(
        Stopwatch.time {
          pager.width = 80
          _ = pager.lines(width: 80, style: .plain)
        })
    }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    var peaks = Samples()
    for _ in 0..<3 {
      let outcome = try await BenchRun(
        executable: executable, arguments: ["--reader-child", file.path, "--reflow"]
      ).run(timeout: .seconds(120))
      guard outcome.exitStatus == 0 else {
        throw BenchError("the reflow child failed (\(outcome.exitStatus))")
      }
      peaks.append(outcome.peakRSS)
    }
    let hello = try await context.helloPeaks()
    let name = "13. reader, \(megabytes) MB reflowed"
    return [80, 120].map { width in
      ResultRow(
        figure: "\(name): the whole text at \(width)", unit: .seconds,
        samples: whole[width] ?? Samples(), baselineName: "read it, find its lines",
        baseline: split, target: .atMost(0.150),
        note: "every page of the book: paragraphs joined and wrapped, verse kept")
    } + [
      ResultRow(
        figure: "\(name): page turn", unit: .seconds, samples: turn,
        baselineName: "redraw the page", baseline: redraw, target: .atMost(0.002)),
      ResultRow(
        figure: "\(name): resize re-cut 120→80", unit: .seconds, samples: recut,
        baselineName: "redraw the page", baseline: redraw, target: .atMost(0.010)),
      ResultRow(
        figure: "\(name): peak RSS", unit: .bytes, samples: peaks, baselineName: "bench-hello",
        baseline: hello, target: .atMost(64 * 1_048_576)),
    ]
  }

  /// The baseline: the file read and every line's bytes found (a byte scan for line ends,
  /// `memchr`), the least any reflow must do. (`Data.split` took 40 times as long: a `Data`
  /// slice per line, made through the generic collection methods.)
  private static func lines(of file: URL) throws -> [Range<Int>] {
    let data = try Data(contentsOf: file)
    return data.withUnsafeBytes { raw -> [Range<Int>] in
      guard let base = raw.baseAddress else { return [] }
      var lines: [Range<Int>] = []
      var start = 0
      while start < raw.count {
        let found = memchr(base + start, 0x0A, raw.count - start)
        let end = found.map { base.distance(to: UnsafeRawPointer($0)) } ?? raw.count
        lines.append(start..<end)
        start = end + 1
      }
      return lines
    }
  }

  /// A PG-shaped text of about `size` bytes: paragraphs of varied words wrapped at 70 columns,
  /// a stanza of indented verse after every eighth, a chapter heading every 40.
  private static func write(to file: URL, size: Int) throws {
    let words = """
      the of and to in that was his he it with is for as had you not be her on at by which have \
      or from this him but all she they were my are me one their so an said them we who would \
      been will no when there if more out up into do any your what has man could other than our \
      some very time upon about may its only now like little then can should made did us such \
      great before must two these see know over much down after first mister good men own never \
      most old shall day where those came come himself way work life without go make well through
      """.split(whereSeparator: \.isWhitespace).map(String.init)
    var generator = SplitMix(seed: 37)
    var text =
      "The Project Gutenberg eBook of Bench\r\n\r\n*** START OF THE PROJECT GUTENBERG EBOOK BENCH"
      + " ***\r\n\r\n"
    var paragraph = 0
    while text.utf8.count < size {
      if paragraph % 40 == 0 { text += "\r\n\r\nCHAPTER \(paragraph / 40 + 1)\r\n\r\n" }
      var line = ""
      let length = 40 + Int(generator.next() % 160)
      for number in 0..<length {
        var word = words[Int(generator.next() % UInt64(words.count))]
        if number == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
        if line.count + word.count + 1 > 70 {
          text += line + "\r\n"
          line = ""
        }
        line += (line.isEmpty ? "" : " ") + word
      }
      text += line + ".\r\n\r\n"
      paragraph += 1
      if paragraph % 8 == 0 {
        text +=
          "    Upon the old way the first men came,\r\n      And made their own good time,\r\n"
        text += "    Before the great day was done,\r\n      And all the work was well.\r\n\r\n"
      }
    }
    text += "*** END OF THE PROJECT GUTENBERG EBOOK BENCH ***\r\n"
    try Data(text.utf8).write(to: file)
  }

  /// A small deterministic generator, so every run reads the same book.
  private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }
}
