import Foundation
import TestSupport
import Testing

@testable import Terminal

/// The text model and the pager: folding, sanitising, wrapping, paging, jumps and search.
@Suite struct ReaderTests {
  static func sample() throws -> BookText {
    BookText(data: try FixtureFiles.data("pg84-sample.txt"))
  }

  @Test func theHeaderAndLicenceAreFolded() throws {
    let text = try Self.sample()
    #expect(text.line(text.body.lowerBound) == "Frankenstein;")
    let before = try #require(
      (0..<text.body.lowerBound).last { !text.rawLine($0).isEmpty })
    #expect(text.rawLine(before).hasPrefix("*** START OF THE PROJECT"))
    #expect(text.line(text.body.upperBound - 1).hasPrefix("situations with honour"))
    let after = try #require(
      (text.body.upperBound..<text.lineCount).first { !text.rawLine($0).isEmpty })
    #expect(text.rawLine(after).hasPrefix("*** END OF THE PROJECT"))
    #expect(text.foldedHeaderLines == 23)
    #expect(
      text.line(0) == "The Project Gutenberg eBook of Frankenstein; Or, The Modern Prometheus")
  }

  @Test func linesEndInAnyWayAndTextWithoutMarkersIsAllBody() {
    let text = BookText(data: Data("\u{FEFF}one\r\ntwo\rthree\n\nfour".utf8))
    #expect((0..<text.lineCount).map(text.line) == ["one", "two", "three", "", "four"])
    #expect(text.body == 0..<5)
    #expect(BookText(data: Data()).lineCount == 0)
  }

  @Test func linesAreSanitisedAndKeepTheirIndentation() {
    let text = BookText(
      data: Data("    a poem\n\tline\u{1B}]0;title\u{07} two\n\u{1B}[31mred\u{1B}[0m\n".utf8))
    #expect(text.line(0) == "    a poem")
    #expect(text.line(1) == "    line two")
    #expect(text.line(2) == "red")
  }

  /// The display rows of line `number` at `width`.
  static func rows(_ text: BookText, line number: Int, width: Int) -> [String] {
    text.rows(
      of: text.piece(containing: text.offset(ofLine: number), in: text.bodyBytes), width: width
    ).map(\.text)
  }

  @Test func wideAndCombiningCharactersWrapByDisplayWidth() throws {
    let text = try Self.sample()
    let japanese = try #require(
      text.body.first { text.line($0).hasPrefix("日本語") })
    let lines = Self.rows(text, line: japanese, width: 40)
    #expect(lines.count > 1)
    #expect(lines.allSatisfy { DisplayWidth.cells($0) <= 40 })
    #expect(lines.dropLast().allSatisfy { DisplayWidth.cells($0) >= 39 }, "\(lines)")
    let cafe = try #require(text.body.first { text.line($0).contains("au lait") })
    #expect(Self.rows(text, line: cafe, width: 40).allSatisfy { DisplayWidth.cells($0) <= 40 })
    #expect(Self.rows(text, line: cafe, width: 40).first?.hasPrefix("Cafe\u{301} au lait") == true)
  }

  @Test func pagesFillTheHeightAndGoBackWhereTheyCame() throws {
    var pager = Pager(text: try Self.sample(), title: "Frankenstein", width: 80, height: 10)
    let first = pager.page()
    #expect(first.rows.count == 10)
    #expect(first.rows.first?.text == "Frankenstein;")
    let step1 = pager.nextPage()
    #expect(step1)
    let second = pager.top
    let step2 = pager.nextPage()
    #expect(step2)
    let step3 = pager.previousPage()
    #expect(step3)
    #expect(pager.top == second)
    let step4 = pager.previousPage()
    #expect(step4)
    #expect(pager.top == pager.visible.lowerBound)
    let step5 = pager.previousPage()
    #expect(!step5)
    while pager.nextPage() {}
    #expect(pager.atEnd)
    // The last paragraph, joined again and wrapped to the 80 columns.
    #expect(
      pager.page().rows.last?.text
        == "father had filled several public situations with honour and reputation.")
  }

  @Test func jumpsAndSearch() throws {
    var pager = Pager(text: try Self.sample(), title: "Frankenstein", width: 80, height: 10)
    pager.go(percent: 90)
    #expect(pager.percent == 90 || pager.percent == 89)
    pager.go(line: 1)
    #expect(pager.lineNumber == 1)
    pager.go(line: 1_000_000)
    // The row holding the last line's first word: the last paragraph's rows do not start
    // where its lines do.
    let last = pager.text.line(pager.visibleLines.upperBound - 1)
    #expect(pager.page().rows.first?.text.contains(last.prefix(20)) == true, "\(pager.page())")
    #expect(pager.atEnd)
    pager.go(line: 1)
    #expect(pager.search("chapter 1") == .found)
    #expect(pager.page().rows.first?.text == " Chapter 1")
    #expect(pager.search(pager.lastSearch ?? "") == .found)
    #expect(pager.page().rows.first?.text == "Chapter 1")
    let here = pager.top
    #expect(pager.search("no such words anywhere") == .notFound)
    #expect(pager.top == here)
    #expect(pager.statusLine.hasPrefix("Frankenstein · line "))
  }

  @Test func rawShowsEverythingAndKeepsThePosition() throws {
    let text = try Self.sample()
    let raw = Pager(text: text, title: "F", width: 80, height: 10, raw: true, top: 0)
    #expect(raw.page().rows.first?.text.hasPrefix("The Project Gutenberg eBook") == true)
    let folded = Pager(text: text, title: "F", width: 80, height: 10, top: 0)
    #expect(folded.top == text.bodyBytes.lowerBound, "a position in the header moves to the body")
  }

  @Test(arguments: [
    ("", PagerCommand.next), ("n", .next), ("f", .next), ("p", .previous), ("b", .mark("")),
    ("g 50%", .percent(50)), ("g 120", .line(120)), ("/whale", .search("whale")),
    ("q", .quit), ("?", .help), ("g 150%", .unknown("g 150%")), ("x", .unknown("x")),
    ("toc", .contents), ("toc 3", .contentsEntry(3)), ("toc 0", .unknown("toc 0")),
  ])
  func commands(line: String, command: PagerCommand) {
    #expect(PagerCommand.parse(line, searching: false) == command)
  }

  @Test func nRepeatsASearchOnlyWhileSearching() {
    #expect(PagerCommand.parse("n", searching: true) == .again)
    #expect(PagerCommand.parse("/", searching: true) == .again)
    #expect(PagerCommand.parse("n", searching: false) == .next)
  }

  @Test func heightComesFromLinesThenTheTerminal() {
    #expect(TerminalHeight.resolve(lines: "40", terminalRows: 30) == 40)
    #expect(TerminalHeight.resolve(lines: nil, terminalRows: 30) == 30)
    #expect(TerminalHeight.resolve(lines: "x", terminalRows: nil) == 24)
    #expect(TerminalHeight.resolve(lines: "2", terminalRows: nil) == 5)
  }

  @Test func promptKeysForDownloadAndRead() throws {
    let parser = PromptParser()
    #expect(try parser.parse("d 3") == .download(row: 3))
    #expect(try parser.parse("d", context: .details(from: .browse)) == .download(row: nil))
    #expect(try parser.parse("read 2") == .read(row: 2))
    #expect(throws: PromptParser.Failure.self) { try parser.parse("d 1 2") }
  }

  @Test func progressLineShowsBytesPercentRateAndTimeLeft() {
    let line = ProgressLine(
      name: "84-frankenstein.epub", received: 1_572_864, total: 3_145_728,
      bytesPerSecond: 524_288, elapsed: 3)
    let expected = "84-frankenstein.epub  1.5 MiB / 3.0 MiB  50%  512.0 KiB/s  ETA 0:03"
    #expect(line.text(width: 100) == expected)
    let final = ProgressLine(
      name: "84-frankenstein.epub", received: 3_145_728, total: 3_145_728,
      bytesPerSecond: 524_288, elapsed: 6, finished: true)
    #expect(final.text(width: 100) == "84-frankenstein.epub  3.0 MiB in 0:06  512.0 KiB/s")
    let narrow = line.text(width: 50)
    #expect(DisplayWidth.cells(narrow) <= 50)
    #expect(narrow.hasSuffix("ETA 0:03"))
    #expect(DisplayWidth.cells(line.text(width: 30)) <= 30)
  }
}
