import Foundation
import GRDB
import Terminal

/// Figure 18: `gutenberg library search` over a library of 100 downloaded texts (50 MB), each
/// run a fresh process, next to GNU `grep -r -i -F` over the same files in the same run; and
/// the peak RSS of the search.
enum LibrarySearchBenchmark {
  /// The word hidden in every tenth book, three times, written with its accent; searched
  /// without it (the search folds accents and case).
  static let word = "Zéphyrine"

  /// Figure 18.
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let books = 100
    let size = context.scale < 1 ? 200_000 : 524_288
    let runs = context.count(15, minimum: 5)
    let directory = try context.dataDirectory("library-search")
    let texts = directory.appendingPathComponent("texts", isDirectory: true)
    try FileManager.default.createDirectory(at: texts, withIntermediateDirectories: true)
    let output = context.scratch.appendingPathComponent("library-search.txt").path
    let gutenberg = context.binaries.gutenberg

    // The store as the program makes it, then 100 downloads recorded in it.
    let create = try await BenchRun(
      executable: gutenberg, arguments: ["library", "--data-dir", directory.path]
    ).run(timeout: .seconds(60))
    guard create.exitStatus == 0 else { throw BenchError("gutenberg library failed") }
    var total = 0
    var paths: [String] = []
    for id in 1...books {
      let file = texts.appendingPathComponent("\(id).txt")
      total += try write(id: id, hidden: id % 10 == 0, size: size, to: file)
      paths.append(file.path)
    }
    let queue = try DatabaseQueue(path: directory.appendingPathComponent("favorites.sqlite").path)
    try await queue.write { [paths] db in
      for (index, path) in paths.enumerated() {
        try db.execute(
          sql: """
            INSERT INTO download (id, format, title, path, size, fetched_at, validator, url)
            VALUES (?, 'txt', ?, ?, ?, ?, NULL, ?)
            """,
          arguments: [
            index + 1, "Bench book \(index + 1)", path, size, 1_700_000_000_000 + index,
            "https://www.gutenberg.org/ebooks/\(index + 1).txt.utf-8",
          ])
      }
    }
    let megabytes = Double(total) / 1_048_576
    Report.progress(
      "figure 18: library search over \(books) texts (\(String(format: "%.0f", megabytes)) MB),"
        + " \(runs) runs each")

    let queries: [(name: String, words: String, grep: String, lines: Int)] = [
      ("a word in 10 books", "zephyrine", word.lowercased(), 30),
      ("a word in none", "quetzalcoatl", "quetzalcoatl", 0),
    ]
    var rows: [ResultRow] = []
    for query in queries {
      var search = Samples()
      var grep = Samples()
      var cpu = Samples()
      var grepCPU = Samples()
      var peaks = Samples()
      // Interleaved, one warm-up each (the files are then in the page cache for both).
      for run in 0...runs {
        let outcome = try await BenchRun(
          executable: gutenberg,
          arguments: ["library", "search", query.words, "--data-dir", directory.path],
          output: output
        ).run(timeout: .seconds(120))
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let lines = printed.split(separator: "\n")
        let expected: Int32 = query.lines > 0 ? 0 : 1 << 8
        guard outcome.exitStatus == expected, lines.count == query.lines,
          lines.allSatisfy({ $0.contains(word) })
        else {
          throw BenchError(
            "library search \(query.words) printed \(lines.count) lines, not \(query.lines) "
              + "(status \(outcome.exitStatus))")
        }
        let baseline = try await BenchRun(
          executable: "/usr/bin/env",
          arguments: ["grep", "-r", "-i", "-F", "-n", query.grep, texts.path], output: output
        ).run(timeout: .seconds(120))
        guard baseline.exitStatus == expected else {
          throw BenchError("grep -r -i failed (status \(baseline.exitStatus))")
        }
        if run > 0 {
          search.append(outcome.seconds)
          cpu.append(outcome.cpuSeconds)
          grepCPU.append(baseline.cpuSeconds)
          grep.append(baseline.seconds)
        }
      }
      let name = "18. library search, \(books) texts, \(query.name)"
      rows.append(
        ResultRow(
          figure: name, unit: .seconds, samples: search, baselineName: "grep -r -i -F",
          baseline: grep, target: .atMost(0.200),
          note: String(
            format: "%.1f MB in %d files; cold process, files in the page cache; CPU (user+sys)"
              + " median %.0f ms, grep's %.0f ms", megabytes, books, cpu.median * 1000,
            grepCPU.median * 1000)))
      if query.lines > 0 {
        // GNU time's report: the search's own peak (its parent is `time`, not this process,
        // whose peak Linux would carry over), where sampling /proc could miss a short one.
        let report = context.scratch.appendingPathComponent("library-search-rss").path
        for _ in 0..<3 {
          let timed = try await BenchRun(
            executable: "/usr/bin/time",
            arguments: [
              "-f", "%M", "-o", report, gutenberg, "library", "search", query.words,
              "--data-dir", directory.path,
            ], output: output
          ).run(timeout: .seconds(120))
          let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
          guard timed.exitStatus == 0,
            let kib = text.split(separator: "\n").last.flatMap({ Double($0) })
          else { throw BenchError("GNU time did not report the search's peak: \(text)") }
          peaks.append(kib * 1024)
        }
        let hello = try await context.helloPeaks()
        rows.append(
          ResultRow(
            figure: "18. library search, \(books) texts: peak RSS", unit: .bytes,
            samples: Samples([peaks.max]), baselineName: "bench-hello", baseline: hello,
            target: .atMost(64 * 1_048_576)))
      }
    }
    try? FileManager.default.removeItem(at: texts)
    return rows
  }

  /// A PG-style text of about `size` bytes: a header, a CONTENTS table, chapters of prose on
  /// lines of about 70 characters, with ``word`` three times when `hidden`; the licence.
  /// Returns its size.
  private static func write(id: Int, hidden: Bool, size: Int, to file: URL) throws -> Int {
    let sentences = [
      "It was a dark and stormy night; the rain fell in torrents, except at",
      "occasional intervals, when it was checked by a violent gust of wind",
      "which swept up the streets (for it is in London that our scene lies),",
      "rattling along the housetops, and fiercely agitating the scanty flame",
      "of the lamps that struggled against the darkness. Through one of the",
      "obscurest quarters of London, and among haunts little loved by the",
      "gentlemen of the police, a man, evidently of the lowest orders, was",
      "wending his solitary way. He stopped twice or thrice at different shops",
    ]
    let chapters = 20
    var text =
      "The Project Gutenberg eBook of Bench \(id)\r\n\r\n"
      + "*** START OF THE PROJECT GUTENBERG EBOOK BENCH \(id) ***\r\n\r\nCONTENTS\r\n\r\n"
      + (1...chapters).map { " Chapter \($0)\r\n" }.joined() + "\r\n\r\n"
    let perChapter = size / chapters / 70
    for chapter in 1...chapters {
      text += "Chapter \(chapter)\r\n\r\n"
      for line in 0..<perChapter {
        var sentence = sentences[(line * 7 + chapter + id) % sentences.count]
        if hidden, line == perChapter / 2, chapter % 7 == 3 {
          sentence = "and there, at the corner, stood \(word), waiting in the rain."
        }
        text += sentence + (line % 9 == 8 ? "\r\n\r\n" : "\r\n")
      }
      text += "\r\n"
    }
    text += "*** END OF THE PROJECT GUTENBERG EBOOK BENCH \(id) ***\r\n\r\n"
    text += String(repeating: "Project Gutenberg licence text.\r\n", count: 350)
    let data = Data(text.utf8)
    try data.write(to: file)
    return data.count
  }
}
