import Catalog
import Foundation
import Gutendex
import Synchronization
import Terminal

/// Figure 20: the browser as one state drawn into the window, on the local catalogue in an
/// 80x24 window: a keypress (`n` across the server's pages, a row's details) from the line to
/// the last line written, and the redraw after a window change of the list and of a reader
/// page; each against a bare render of the same screen.
@MainActor
enum BrowserBenchmark {
  /// A window whose size the bench changes, and an output drawing into it.
  final class Window: Sendable {
    private let size = Mutex((width: 80, height: 24))
    private let written = Mutex(0)

    var output: TerminalOutput {
      TerminalOutput(
        isTerminal: true, errorIsTerminal: false, style: .plain,
        windowSize: { [self] in size.withLock { $0 } },
        writeOut: { [self] text in written.withLock { $0 += text.utf8.count } },
        writeErr: { _ in })
    }

    func resize(width: Int, height: Int) { size.withLock { $0 = (width, height) } }
    var bytes: Int { written.withLock { $0 } }
  }

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    Report.progress("figure 20: keypresses and redraws in an 80x24 window")
    let directory = try context.dataDirectory("browser-window")
    let service = try await CatalogService.open(
      client: context.client(), location: context.location(directory),
      local: LocalCatalogue.embedded(), mode: .localOnly)
    let window = Window()
    let session = InteractiveSession(service: service, output: window.output, prefetch: true)
    await session.start()
    let presses = context.count(300)
    var next = Samples()
    var details = Samples()
    var bare = Samples()
    for press in 0..<presses {
      // Through the first 300 screens of the list (about 180 server pages), then back.
      if press > 0, press % 150 == 0 { _ = await session.handle("g 1") }
      let before = window.bytes
      next.append(await Stopwatch.time { _ = await session.handle("n") })
      guard window.bytes > before else { throw BenchError("n drew nothing at press \(press)") }
      details.append(await Stopwatch.time { _ = await session.handle("3") })
      _ = await session.handle("b")
      let rows = session.state.shownBooks.map(\.book)
      bare.append(
        Stopwatch.time {
          _ = BrowseScreen(
            query: "all books", page: 1, pageCount: 1, totalCount: rows.count,
            rows: rows.enumerated().map { BookRow(number: $0.offset + 1, book: $0.element) }
          ).lines(width: 80, style: .plain)
        })
    }

    var listRedraw = Samples()
    for step in 0..<context.count(200) {
      let (width, height) = step % 2 == 0 ? (100, 40) : (80, 24)
      window.resize(width: width, height: height)
      let before = window.bytes
      listRedraw.append(await Stopwatch.time { await session.windowChanged() })
      guard window.bytes > before else { throw BenchError("a resize drew nothing") }
    }

    let (readerRedraw, pageRender) = try readerRedraws(
      context, service: service, samples: context.count(200))
    return [
      ResultRow(
        figure: "20. keypress n (next screen, across pages), 80x24, local", unit: .seconds,
        samples: next, baselineName: "bare render of the list", baseline: bare,
        target: .p99AtMost(0.005)),
      ResultRow(
        figure: "20. keypress N (a row's details), 80x24, local", unit: .seconds,
        samples: details, baselineName: "bare render of the list", baseline: bare,
        target: .p99AtMost(0.005)),
      ResultRow(
        figure: "20. redraw after a window change, list (80x24 <-> 100x40)", unit: .seconds,
        samples: listRedraw, baselineName: "bare render of the list", baseline: bare,
        target: .p99AtMost(0.010)),
      ResultRow(
        figure: "20. redraw after a window change, reader page of a 5 MB text", unit: .seconds,
        samples: readerRedraw, baselineName: "render of the page at one size",
        baseline: pageRender, target: .p99AtMost(0.010)),
    ]
  }

  /// A reader over a 5 MB text in the middle of the book: the redraw after each resize, and
  /// the same page rendered without a resize.
  private static func readerRedraws(
    _ context: BenchContext, service: CatalogService, samples: Int
  ) throws -> (Samples, Samples) {
    let file = context.scratch.appendingPathComponent("browser-window-reader.txt")
    let paragraph =
      (1...90).map { "word\($0)" }.joined(separator: " ").split(separator: " ")
      .chunked(12).map { $0.joined(separator: " ") }.joined(separator: "\n") + "\n\n"
    var text = "*** START OF THE PROJECT GUTENBERG EBOOK BENCH ***\n\n"
    while text.utf8.count < 5_000_000 { text += paragraph }
    text += "*** END OF THE PROJECT GUTENBERG EBOOK BENCH ***\n"
    try Data(text.utf8).write(to: file)
    let book = try BookText(contentsOfFile: file.path)
    let window = Window()
    var pager = Pager(text: book, title: "Bench", width: 80, height: 22)
    pager.go(percent: 50)
    let reader = ReaderSession(
      pager: pager, id: 1, service: service, output: window.output, input: NoInput())
    var redraws = Samples()
    var renders = Samples()
    for step in 0..<samples {
      let (width, height) = step % 2 == 0 ? (100, 40) : (80, 24)
      window.resize(width: width, height: height)
      redraws.append(Stopwatch.time { reader.windowChanged() })
      renders.append(Stopwatch.time { _ = pager.lines(width: 80, style: .plain) })
    }
    return (redraws, renders)
  }

  /// No lines: the bench never reads from the reader's prompt.
  struct NoInput: LineSource {
    var isInteractive: Bool { false }
    func nextLine() async -> String? { nil }
  }
}

extension Array {
  /// The elements in runs of `size` (the last may be shorter).
  fileprivate func chunked(_ size: Int) -> [[Element]] {
    stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min(count, $0 + size)]) }
  }
}
