import Foundation

/// Figure 25: `gutenberg notes 84 --markdown` of 1,000 highlights, each with a quote, a note and
/// a chapter, on a book that is not a favourite (so its title and author come from the local
/// catalogue), as a fresh process; against `gutenberg bookmarks 84` of the same data (the same
/// rows, listed without Markdown) in the same run, interleaved. The data directory is made as a
/// user on another machine would make it: `favorites import` of a version 3 export document.
enum NotesBenchmark {
  static let highlightCount = 1_000

  /// Figure 25.
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let runs = context.count(15, minimum: 5)
    let directory = try context.dataDirectory("figure25-notes")
    let date = "2026-01-02T03:04:05Z"
    let marks = (0..<highlightCount).map { index in
      let offset = 4_000 + index * 600
      return #"{"byte_offset":\#(offset),"chapter":"CHAPTER \#(index / 40 + 1)","#
        + #""created_at":"\#(date)","end_offset":\#(offset + 180),"key":"h-\#(index)","#
        + #""note":"note \#(index): the creature > the man, # not a heading","#
        + #""quote":"It was on a dreary night of November that I beheld the accomplishment of "#
        + #"my toils. With an anxiety that almost amounted to agony, I collected the "#
        + #"instruments of life around me (\#(index))","updated_at":"\#(date)"}"#
    }
    let document =
      #"{"count":1,"favorites":[{"book":{"id":84,"title":"Frankenstein"},"bookmarks":["#
      + marks.joined(separator: ",")
      + #"],"favourite":false}],"format":"gutenberg-favorites","version":3}"#
    let file = context.scratch.appendingPathComponent("figure25-notes.json")
    try Data(document.utf8).write(to: file)
    let imported = try await BenchRun(
      executable: context.binaries.gutenberg,
      arguments: ["favorites", "import", file.path, "--data-dir", directory.path]
    ).run()
    guard imported.exitStatus == 0 else {
      throw BenchError("favorites import of the notes failed (\(imported.exitStatus))")
    }
    Report.progress("figure 25: notes --markdown of \(highlightCount) highlights, \(runs) runs")
    let output = context.scratch.appendingPathComponent("figure25-notes.md").path
    var notes = Samples()
    var bookmarks = Samples()
    var peaks = Samples()
    // Interleaved, one warm-up each.
    for run in 0...runs {
      let outcome = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: ["notes", "84", "--markdown", "--data-dir", directory.path], output: output
      ).run()
      let markdown = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      let quotes = markdown.split(separator: "\n").filter { $0.hasPrefix("> It was on") }.count
      guard outcome.exitStatus == 0, quotes == highlightCount,
        markdown.contains("note 999: the creature \\> the man, # not a heading"),
        markdown.contains("*CHAPTER 25*")
      else {
        throw BenchError(
          "notes --markdown printed \(quotes) quotes, not \(highlightCount) "
            + "(status \(outcome.exitStatus))")
      }
      let anchor = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: ["bookmarks", "84", "--data-dir", directory.path], output: output
      ).run()
      let rows = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
        .split(separator: "\n").count
      guard anchor.exitStatus == 0, rows == highlightCount else {
        throw BenchError("bookmarks printed \(rows) rows, not \(highlightCount)")
      }
      if run > 0 {
        notes.append(outcome.seconds)
        peaks.append(outcome.peakRSS)
        bookmarks.append(anchor.seconds)
      }
    }
    return [
      ResultRow(
        figure: "25. notes --markdown, 1,000 highlights", unit: .seconds, samples: notes,
        baselineName: "bookmarks, same data", baseline: bookmarks, target: .atMost(0.100),
        note: String(
          format: "a book with no star: title and author from the local catalogue; peak RSS"
            + " median %.1f MiB", peaks.median / 1_048_576))
    ]
  }
}
