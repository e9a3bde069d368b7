import Foundation
import GutendexServer
import Terminal
import TestSupport

/// Figure 24, the reader on an EPUB (issue 37 item 3): `gutenberg read 84 --format epub` of a
/// 5 MB EPUB in Project Gutenberg's shape (a header document, chapters of paragraphs with page
/// numbers, note references and stanzas, the licence), already in the library, in a fresh
/// process each time: the first page (the process from its start to its exit after `q`),
/// against the same book's plain text read the same way; the peak RSS of reading it to its end
/// (`G`); and the whole book turned into text in this process.
enum EpubBenchmark {
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let size = context.scale < 1 ? 2 * 1_048_576 : 5 * 1_048_576
    let runs = context.count(10, minimum: 3)
    let epub = context.scratch.appendingPathComponent("bench.epub")
    let chapters = try write(to: epub, size: size)
    // The same book as a plain text: what the EPUB is turned into.
    var convert = Samples()
    var converted: BookText?
    for _ in 0..<context.count(5, minimum: 2) {
      convert.append(
        try await Stopwatch.time { converted = try await EpubConversion(path: epub.path).whole() })
    }
    guard let converted else { throw BenchError("the EPUB was not read") }
    let plain = context.scratch.appendingPathComponent("bench-epub.txt")
    try converted.data.write(to: plain)
    let epubBytes =
      (try FileManager.default.attributesOfItem(atPath: epub.path)[.size] as? Int) ?? 0
    Report.progress(
      "figure 24: read of a \(epubBytes / 1_048_576) MB EPUB (\(chapters) chapters), \(runs) runs")

    let server = context.server
    server.serve(
      ServedFile(content: .file(epub), contentType: "application/epub+zip"),
      at: "/ebooks/84.epub3.images")
    server.serve(
      ServedFile(content: .file(plain), contentType: "text/plain; charset=utf-8"),
      at: "/ebooks/84.txt.utf-8")
    defer {
      server.removeFile(at: "/ebooks/84.epub3.images")
      server.removeFile(at: "/ebooks/84.txt.utf-8")
    }
    // A data directory for each format: the reading position is kept by book, and the one
    // left in the EPUB's text would otherwise be where the plain text opens.
    let data = [
      "epub": try context.dataDirectory("epub-data"),
      "txt": try context.dataDirectory("epub-txt-data"),
    ]
    var environment = BenchRun.cleanEnvironment
    environment["GUTENBERG_MIRROR"] = context.url.absoluteString
    environment["COLUMNS"] = "80"
    environment["LINES"] = "24"
    let quit = context.scratch.appendingPathComponent("epub-quit.txt")
    try Data("q\n".utf8).write(to: quit)
    let end = context.scratch.appendingPathComponent("epub-end.txt")
    try Data("G\nq\n".utf8).write(to: end)
    let shown = context.scratch.appendingPathComponent("epub-shown.txt")
    func read(_ format: String, input: URL) async throws -> BenchRun.Outcome {
      var environment = environment
      environment["GUTENBERG_DATA_DIR"] = data[format]?.path
      let outcome = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: [
          "read", "84", "--format", format, "--pager", "--server", context.url.absoluteString,
        ], input: input.path, output: shown.path, environment: environment
      ).run(timeout: .seconds(120))
      let page = (try? String(contentsOf: shown, encoding: .utf8)) ?? ""
      // After `q` the first page, its first chapter's heading; after `G` the last page. (A
      // run after `G` opens at the end, where the one before it stopped.)
      let shows = input == end ? page.contains(" · 100%\n") : page.contains("\nChapter 1\n")
      guard outcome.exitStatus == 0, shows else {
        throw BenchError(
          "read --format \(format) failed (\(outcome.exitStatus)): \(page.prefix(300))")
      }
      return outcome
    }
    // Into the library once (downloads), then read from it.
    _ = try await read("epub", input: quit)
    _ = try await read("txt", input: quit)
    var first = Samples()
    var plainFirst = Samples()
    for _ in 0..<runs {
      first.append(try await read("epub", input: quit).seconds)
      plainFirst.append(try await read("txt", input: quit).seconds)
    }
    var peaks = Samples()
    var plainPeaks = Samples()
    for _ in 0..<3 {
      peaks.append(try await read("epub", input: end).peakRSS)
      plainPeaks.append(try await read("txt", input: end).peakRSS)
    }
    let name = "24. reader, \(epubBytes / 1_048_576) MB EPUB"
    let textBytes = converted.data.count
    return [
      ResultRow(
        figure: "\(name): first page, cold", unit: .seconds, samples: first,
        baselineName: "its plain text, cold", baseline: plainFirst, target: .atMost(0.200),
        note:
          "`gutenberg read 84 --format epub --pager`, from its start to its exit after `q`: "
          + "\(chapters) chapters, \(textBytes / 1024) KiB of text; the whole book turned into "
          + "text in \(String(format: "%.0f ms", convert.median * 1e3)) (median)"),
      ResultRow(
        figure: "\(name): peak RSS, read to its end", unit: .bytes, samples: peaks,
        baselineName: "its plain text", baseline: plainPeaks, target: .atMost(64 * 1_048_576)),
    ]
  }

  /// Writes a Project Gutenberg-shaped EPUB of about `size` bytes at `file`; returns the number
  /// of chapters.
  private static func write(to file: URL, size: Int) throws -> Int {
    // The deflated documents are about a third of their size: a first guess, then the count
    // that makes the file `size`.
    var chapters = max(2, size * 3 / 300_000)
    for _ in 0..<2 {
      try writeBook(to: file, chapters: chapters)
      let written =
        (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 1
      chapters = max(2, Int((Double(chapters) * Double(size) / Double(written)).rounded()))
    }
    try writeBook(to: file, chapters: chapters)
    return chapters
  }

  private static func writeBook(to file: URL, chapters: Int) throws {
    let words = """
      the of and to in that was his he it with is for as had you not be her on at by which have \
      or from this him but all she they were my are me one their so an said them we who would \
      been will no when there if more out up into do any your what has man could other than our \
      some very time upon about may its only now like little then can should made did us such \
      great before must two these see know over much down after first mister good men own never \
      most old shall day where those came come himself way work life without go make well through
      """.split(whereSeparator: \.isWhitespace).map(String.init)
    var generator = SplitMix(seed: 37)
    var documents = [
      EpubWriter.File(
        path: "header.xhtml",
        text: EpubWriter.xhtml(
          title: "Bench",
          body: """
            <section class="pg-boilerplate" id="pg-header"><h1>The Project Gutenberg eBook of \
            Bench</h1><p>This eBook is for the use of anyone anywhere.</p>
            <div id="pg-start-separator"><span>*** START OF THE PROJECT GUTENBERG EBOOK BENCH \
            ***</span></div></section>
            """))
    ]
    var page = 1
    for chapter in 1...chapters {
      var body = "<h2>Chapter \(chapter)</h2>\n"
      for paragraph in 0..<120 {
        var text = ""
        let length = 40 + Int(generator.next() % 160)
        for number in 0..<length {
          var word = words[Int(generator.next() % UInt64(words.count))]
          if number == 0 { word = word.prefix(1).uppercased() + word.dropFirst() }
          text += (number == 0 ? "" : number % 9 == 0 ? "\n" : " ") + word
          if number == length / 2, paragraph % 5 == 0 {
            text += "<span class=\"pagenum\"><a id=\"Page_\(page)\">[Pg \(page)]</a></span>"
            page += 1
          }
        }
        let note =
          paragraph % 17 == 0
          ? "<a id=\"r\(chapter)_\(paragraph)\" href=\"#n\(chapter)_\(paragraph)\" "
            + "class=\"fnanchor\">[\(paragraph)]</a>" : ""
        body += "<p>\(text)\(note).</p>\n"
        if paragraph % 8 == 7 {
          body += """
            <div class="poem"><div class="stanza">
            <span class="i0">Upon the old way the first men came,<br/></span>
            <span class="i2">And made their own good time,<br/></span>
            <span class="i0">Before the great day was done,<br/></span>
            <span class="i2">And all the work was well.<br/></span>
            </div></div>

            """
        }
      }
      documents.append(
        EpubWriter.File(
          path: "chapter\(chapter).xhtml", text: EpubWriter.xhtml(title: "\(chapter)", body: body)))
    }
    documents.append(
      EpubWriter.File(
        path: "footer.xhtml",
        text: EpubWriter.xhtml(
          title: "Licence",
          body: """
            <section class="pg-boilerplate" id="pg-footer"><div id="pg-end-separator"><span>\
            *** END OF THE PROJECT GUTENBERG EBOOK BENCH ***</span></div>
            \(String(repeating: "<p>Updated editions will replace the previous one.</p>\n", count: 60))
            </section>
            """)))
    try EpubWriter.write(
      to: file.path, title: "Bench", documents: documents, spine: documents.map(\.path))
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
