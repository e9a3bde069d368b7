import Foundation
import TestSupport
import Testing

@testable import Terminal

/// The row index: pages made of wrapped rows whatever the line lengths, positions that survive
/// a change of width, search that wraps around, the table of contents and refusing non-text.
@Suite struct PagerRowTests {
  /// A PG-style text whose body is `before` lines, one line of `words` numbered words, and a
  /// closing line.
  static func book(words: Int, before: [String] = ["Chapter 1", ""]) -> (
    text: BookText, words: [String]
  ) {
    let paragraph = (1...words).map { "w\($0)" }.joined(separator: " ")
    let body = (before + [paragraph, "", "The end."]).joined(separator: "\r\n")
    let text =
      "The Project Gutenberg eBook of Test\r\n\r\n*** START OF THE PROJECT GUTENBERG EBOOK TEST ***"
      + "\r\n\r\n" + body
      + "\r\n\r\n*** END OF THE PROJECT GUTENBERG EBOOK TEST ***\r\nLicence.\r\n"
    return (
      BookText(data: Data(text.utf8)), body.split(whereSeparator: \.isWhitespace).map(String.init)
    )
  }

  /// Every word shown from the pager's position to the end, page by page, and the tops.
  static func readToTheEnd(_ pager: inout Pager) -> (words: [String], tops: [Int]) {
    var words: [String] = []
    var tops: [Int] = []
    repeat {
      tops.append(pager.top)
      let rows = pager.page().rows
      #expect(rows.allSatisfy { DisplayWidth.cells($0.text) <= pager.width })
      words += rows.flatMap { $0.text.split(separator: " ").map(String.init) }
    } while pager.nextPage()
    return (words, tops)
  }

  @Test func aLineLongerThanManyScreensIsPagedWholeAndInOrder() {
    // About 180 KB on one line: several pieces, hundreds of pages at 80×22.
    let book = Self.book(words: 30_000)
    var pager = Pager(text: book.text, title: "T", width: 80, height: 22)
    let read = Self.readToTheEnd(&pager)
    #expect(read.tops.count > 100)
    #expect(read.words == book.words)
    #expect(pager.atEnd)
    let outcome1 = pager.nextPage()
    #expect(!outcome1, "no page after the end")
    #expect(pager.page().rows.last?.text == "The end.")
  }

  @Test func previousPageAfterNextPageReturnsToTheSameTop() async throws {
    // Seconds of CPU: on a thread of its own, not the pool the parallel suites share.
    try await OwnThread.run {
      let book = Self.book(words: 30_000)
      var pager = Pager(text: book.text, title: "T", width: 61, height: 17)
      let tops = Self.readToTheEnd(&pager).tops
      var back: [Int] = [pager.top]
      while pager.previousPage() { back.append(pager.top) }
      #expect(back.reversed() == tops, "the same pages, backwards, across every piece boundary")
      #expect(pager.top == pager.visible.lowerBound)
      let outcome2 = pager.previousPage()
      #expect(!outcome2)
    }
  }

  @Test(arguments: [40, 57, 120, 200])
  func aChangeOfWidthKeepsTheTopWordOnScreen(width: Int) async throws {
    // Seconds of CPU: on a thread of its own, not the pool the parallel suites share.
    try await OwnThread.run {
      let book = Self.book(words: 30_000)
      var pager = Pager(text: book.text, title: "T", width: 80, height: 20)
      for _ in 0..<150 { pager.nextPage() }
      let word = try #require(pager.page().rows.first?.text.split(separator: " ").first)
      pager.width = width
      let rows = pager.page().rows.map(\.text)
      #expect(
        rows.contains { $0.split(separator: " ").contains(word) }, "\(word) at \(width): \(rows)")
      // The lines drawn at another width start with that word's row too.
      let drawn = pager.lines(width: width, style: .plain)
      #expect(drawn.first?.split(separator: " ").contains(word) == true, "\(drawn)")
    }
  }

  @Test func pagesMixLongAndShortLinesWithoutLosingAny() throws {
    let text = try ReaderTests.sample()
    var pager = Pager(text: text, title: "F", width: 33, height: 7)
    let words = Self.readToTheEnd(&pager).words
    let expected = text.body.flatMap { text.line($0).split(separator: " ").map(String.init) }
    // Japanese has no spaces: it is cut between characters, so compare the characters.
    #expect(words.joined() == expected.joined())
    #expect(words.count > expected.count - 10)
  }

  @Test func aPositionSavedAtOneWidthOpensAtAnother() {
    let book = Self.book(words: 5_000)
    var pager = Pager(text: book.text, title: "T", width: 100, height: 10)
    for _ in 0..<5 { pager.nextPage() }
    let top = pager.top
    let first = pager.page().rows.first?.text.split(separator: " ").first
    let reopened = Pager(text: book.text, title: "T", width: 45, height: 10, top: top)
    #expect(reopened.top <= top)
    #expect(reopened.page().rows.first?.text.split(separator: " ").contains(first ?? "") == true)
    #expect(reopened.lineNumber == pager.lineNumber)
  }

  @Test func searchWrapsAroundTheEndAndMarksTheMatch() throws {
    var pager = Pager(text: try ReaderTests.sample(), title: "F", width: 80, height: 10)
    pager.go(percent: 82)
    let outcome3 = pager.search("Petersburgh")
    #expect(outcome3 == .wrapped)
    #expect(pager.percent < 82)
    let plain = pager.lines(width: 80, style: .plain)
    #expect(plain.contains { $0.contains("»Petersburgh«") }, "\(plain)")
    #expect(plain.dropLast().allSatisfy { DisplayWidth.cells($0) <= 80 })
    let coloured = pager.lines(width: 80, style: Style(isEnabled: true))
    #expect(coloured.contains { $0.contains("\u{1B}[7mPetersburgh\u{1B}[0m") }, "\(coloured)")
    // The next match is after this one, without wrapping.
    let outcome4 = pager.search("Petersburgh")
    #expect(outcome4 == .found)
    let outcome5 = pager.search("nowhere in this book")
    #expect(outcome5 == .notFound)
    pager.nextPage()
    #expect(!pager.lines(width: 80, style: .plain).contains { $0.contains("»") })
  }

  @Test func searchFindsAWordInsideAVeryLongLine() {
    let book = Self.book(words: 30_000)
    var pager = Pager(text: book.text, title: "T", width: 80, height: 20)
    let outcome6 = pager.search("w29999")
    #expect(outcome6 == .found)
    #expect(pager.page().rows.first?.text.contains("w29999") == true)
    let outcome7 = pager.search("chapter 1")
    #expect(outcome7 == .wrapped)
    #expect(pager.page().rows.first?.text == "Chapter 1")
  }

  @Test func theContentsComeFromTheBooksOwnTable() throws {
    let text = try ReaderTests.sample()
    let toc = TableOfContents(text, in: text.bodyBytes)
    #expect(
      toc.entries.map(\.title) == ["Letter 1", "Letter 2", "Letter 3", "Letter 4", "Chapter 1"])
    var pager = Pager(text: text, title: "F", width: 80, height: 10)
    pager.go(offset: toc.entries[4].offset)
    #expect(pager.page().rows.first?.text == "Chapter 1")
    #expect(
      pager.page().rows.dropFirst(2).first?.text.hasPrefix("I am by birth a Genevese") == true)
  }

  @Test func theContentsComeFromHeadingsWithoutATable() throws {
    let text = BookText(data: try FixtureFiles.data("pg46-headings-sample.txt"))
    let toc = TableOfContents(text, in: text.bodyBytes)
    #expect(
      toc.entries.map(\.title) == [
        "PREFACE", "STAVE ONE.", "STAVE TWO.", "BOOK THE SECOND", "I.", "II",
        "CHAPTER XII. The Last of the Spirits",
      ])
    for entry in toc.entries {
      #expect(text.bytes.string(entry.offset..<text.lineEnd(from: entry.offset)) == entry.title)
    }
    let lines = toc.lines(width: 80, style: .plain)
    #expect(lines.first == "Contents (toc N goes to entry N)")
    #expect(lines[2] == "2. STAVE ONE.")
    #expect(TableOfContents(BookText(data: Data("no headings\n".utf8)), in: 0..<12).entries.isEmpty)
  }

  @Test func aFileThatIsNotTextIsToldApart() {
    var binary = Data("%PDF-1.7\n".utf8)
    binary.append(contentsOf: [0x00, 0x9C, 0xFF] + (0..<3_000).map { UInt8($0 % 256) })
    #expect(BookText(data: binary).notText == "it has a NUL byte at byte 10")
    let noNul = Data((0..<4_000).map { UInt8(128 + $0 % 120) })
    #expect(BookText(data: noNul).notText?.hasSuffix("are not UTF-8 text") == true)
    // Latin-1 prose: a few invalid bytes, still a text.
    let latin1 = Data(
      String(repeating: "Le caf\u{E9} est pr\u{EA}t, dit-il. ", count: 100).unicodeScalars.map {
        UInt8($0.value)
      })
    #expect(BookText(data: latin1).notText == nil)
    #expect(BookText(data: Data()).notText == nil)
    #expect(BookText(data: try! FixtureFiles.data("pg84-sample.txt")).notText == nil)
  }

  @Test func anEmptyBodyPagesNothingAndDoesNotCrash() {
    for text in ["", "\r\n\r\n", "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\n"] {
      var pager = Pager(text: BookText(data: Data(text.utf8)), title: "E", width: 80, height: 10)
      #expect(pager.page().rows.isEmpty)
      let outcome8 = pager.nextPage()
      #expect(!outcome8)
      let outcome9 = pager.previousPage()
      #expect(!outcome9)
      let outcome10 = pager.search("x")
      #expect(outcome10 == .notFound)
      pager.go(percent: 50)
      pager.go(line: 3)
      #expect(pager.lines(width: 80, style: .plain).count == 1)
    }
  }

  @Test func aLineWithoutSpacesIsCutBetweenCharacters() async throws {
    // Seconds of CPU: on a thread of its own, not the pool the parallel suites share.
    try await OwnThread.run {
      let line = String(repeating: "日本語", count: 20_000)
      let text = BookText(data: Data(line.utf8))
      var pager = Pager(text: text, title: "J", width: 40, height: 30)
      var shown = ""
      repeat {
        let rows = pager.page().rows
        #expect(rows.allSatisfy { DisplayWidth.cells($0.text) <= 40 })
        shown += rows.map(\.text).joined()
      } while pager.nextPage()
      #expect(shown == line)
    }
  }
}
