import Foundation
import TestSupport
import Testing

@testable import Terminal

/// Prose reflowed to the window, everything else kept: the reader's rows of
/// `pg-shapes-sample.txt` (prose, indented and flush verse, a table, a table of contents, rules,
/// a letter with a centred signature) at 40, 72 and 100 columns, against their captures in
/// `Fixtures/reflow/` (`GUTENBERG_RECORD_SCREENS=1` rewrites them), and the rules they keep.
@Suite struct ReflowGoldenTests {
  static let captures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("TestSupport/Fixtures/reflow")

  static func text() throws -> BookText {
    BookText(data: try FixtureFiles.data("pg-shapes-sample.txt"))
  }

  /// Every row the reader shows of the body at `width`, page after page.
  static func rows(_ text: BookText, width: Int) -> [String] {
    var pager = Pager(text: text, title: "Shapes", width: width, height: 20)
    var rows: [String] = []
    repeat { rows += pager.page().rows.map(\.text) } while pager.nextPage()
    return rows
  }

  /// The body's lines as the file has them (line ends and trailing spaces removed).
  static func sourceLines(_ text: BookText) -> [(offset: Int, text: String)] {
    text.body.map { number in
      let range = text.lineRange(number)
      var line = text.bytes.string(range)
      while line.last == " " { line.removeLast() }
      return (range.lowerBound, line)
    }
  }

  /// The first words of each prose paragraph of the fixture.
  static let prose = [
    "It is a truth", "However little known", "“My dear Mr. Bennet", "“But it is,”",
    "“You are old, Father William,” the young man said, “and", "The distances by the post",
    "You will rejoice", "I am already far north",
  ]

  @MainActor @Test(arguments: [40, 72, 100])
  func theBodyReadsAsItsCapture(width: Int) throws {
    let rows = Self.rows(try Self.text(), width: width)
    #expect(rows.allSatisfy { DisplayWidth.cells($0) <= width }, "a row wider than \(width)")
    let shown = rows.joined(separator: "\n") + "\n"
    let file = Self.captures.appendingPathComponent("width-\(width).txt")
    if ScreenCaptureTests.isRecording {
      try FileManager.default.createDirectory(at: Self.captures, withIntermediateDirectories: true)
      try shown.write(to: file, atomically: true, encoding: .utf8)
      return
    }
    let saved = try String(contentsOf: file, encoding: .utf8)
    let difference = ScreenCaptureTests.diff(saved, shown)
    #expect(difference.isEmpty, "reflow/width-\(width).txt differs:\n\(difference)")
  }

  /// Each prose paragraph is one piece: its words in order, every row but the last filled (the
  /// next word would not fit), whatever the width PG wrapped it at.
  @Test(arguments: [40, 72, 100])
  func proseIsJoinedAndWrappedToTheWidth(width: Int) throws {
    let text = try Self.text()
    let lines = Self.sourceLines(text)
    for start in Self.prose {
      let first = try #require(lines.firstIndex { $0.text.hasPrefix(start) }, "\(start)")
      let piece = text.piece(containing: lines[first].offset, in: text.bodyBytes)
      #expect(piece.layout == .paragraph, "\(start)")
      var paragraph: [String] = []
      for line in lines[first...] {
        if line.text.isEmpty { break }
        paragraph.append(line.text)
      }
      #expect(paragraph.count >= 2, "\(start)")
      let rows = text.rows(of: piece, width: width).map(\.text)
      let words = paragraph.flatMap { $0.split(separator: " ") }
      #expect(rows.flatMap { $0.split(separator: " ") } == words, "\(start) at \(width)")
      for (row, next) in zip(rows, rows.dropFirst()) {
        let word = String(next.split(separator: " ").first ?? "")
        #expect(
          DisplayWidth.cells(row) + 1 + DisplayWidth.cells(word) > width,
          "'\(row)' had room for '\(word)' at \(width)")
      }
      if width == 100 { #expect(rows.count <= paragraph.count, "\(start): \(rows)") }
    }
  }

  /// Verse (indented and flush), the table, the contents, the rules, the date and the
  /// signature: each line one row, byte for byte as the file has it, when it fits; a line
  /// wider than the window starts with its own first row and loses no word (a rule is cut to
  /// the window, a centred or right-set line moves left).
  @Test(arguments: [40, 72, 100])
  func verseAndTablesAreKeptAsWritten(width: Int) throws {
    let text = try Self.text()
    let lines = Self.sourceLines(text)
    let tyger = try #require(lines.firstIndex { $0.text == "Tyger Tyger, burning bright," })
    let flush = lines[tyger..<(tyger + 9)].filter { !$0.text.isEmpty }
    let kept = lines.filter { $0.text.hasPrefix(" ") || $0.text.hasPrefix("---") } + flush
    #expect(kept.count == 32)
    for line in kept {
      let piece = text.piece(containing: line.offset, in: text.bodyBytes)
      #expect(piece.layout == .asWritten, "'\(line.text)'")
      let rows = text.rows(of: piece, width: width).map(\.text)
      if DisplayWidth.cells(line.text) <= width {
        #expect(rows == [line.text], "at \(width)")
      } else if line.text.hasPrefix("---") {
        #expect(rows == [String(repeating: "-", count: width)])
      } else if line.text.prefix(10).allSatisfy({ $0 == " " }),
        DisplayWidth.cells(line.text.trimmingCharacters(in: .whitespaces)) <= width - 2
      {
        // Set far in (centred, or to the right): moved left as far as it must, ending at the
        // window's edge, its words and their spacing as written.
        let words = line.text.drop { $0 == " " }
        #expect(
          rows == [
            String(repeating: " ", count: width - DisplayWidth.cells(String(words))) + words
          ],
          "at \(width)")
      } else {
        #expect(rows.count > 1 && line.text.hasPrefix(rows[0]), "\(rows) at \(width)")
        #expect(
          rows.flatMap { $0.split(separator: " ") } == line.text.split(separator: " "),
          "\(rows) at \(width)")
        #expect(rows.dropFirst().allSatisfy { $0.hasPrefix("  ") }, "\(rows)")
      }
    }
  }

  /// A place in a reflowed paragraph is the same byte at every width: the page opened there
  /// starts with the row holding it, and `--width` narrower than the window wraps to it.
  @Test func placesAndTheTextWidthSurviveAnyWidth() throws {
    let text = try Self.text()
    let lines = Self.sourceLines(text)
    let line = try #require(lines.first { $0.text.hasPrefix("of a good fortune") })
    for width in [40, 72, 100] {
      let pager = Pager(text: text, title: "S", width: width, height: 10, top: line.offset)
      let top = try #require(pager.page().rows.first)
      #expect(top.start <= line.offset)
      #expect(top.text.contains("of") || top.text.contains("possession"), "\(top)")
    }
    let narrow = Pager(text: text, title: "S", width: 120, height: 400, textWidth: 50)
    let rows = narrow.page().rows.map(\.text)
    #expect(rows.allSatisfy { DisplayWidth.cells($0) <= 50 })
    #expect(rows.contains { DisplayWidth.cells($0) > 45 })
    #expect(narrow.lines(width: 120, style: .plain).last?.hasPrefix("S · line ") == true)
  }
}
