import Foundation
import TestSupport
import Testing

@testable import Terminal

/// The reflow works on the text's bytes (``RowWrapper``), printable ASCII
/// copied as it is and only other words decoded; and a pager keeps the pieces and pages it
/// found (``RowCache``). Both must give what the plain way gives: the piece decoded to a
/// string, cut into words, each sanitised and measured, wrapped one word after another; and
/// every piece found afresh. Checked on the real Project Gutenberg samples in the fixtures,
/// as they are and with CRLF line ends, tabs, accents, combining marks, wide characters,
/// no-break spaces, escapes and words longer than a row put in, and as Windows-1252.
@Suite struct ReflowBytesTests {
  static let samples = ["pg84-sample.txt", "pg-shapes-sample.txt", "pg46-headings-sample.txt"]

  /// What is put into every third line of a sample: a word with a precomposed accent and one
  /// with a combining one, wide characters, a no-break space (two words once sanitised), an
  /// escape sequence (removed), an emoji with a modifier, and a long word of accented letters.
  static let additions = [
    " naïve e\u{301}tude", " 日本語の本", " hold\u{00A0}fast", " \u{1B}[31mred\u{1B}[0m",
    " 👍🏽ok", " ĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĲĳĴĵĶķĸĹĺĻļĽľ",
    " supercalifragilisticexpialidocious-and-then-some-more-to-be-longer-than-a-row",
  ]

  /// The samples as they are, and changed: CRLF line ends, a tab for indentation, and the
  /// additions; and as Windows-1252 with accents.
  static func texts() throws -> [(name: String, text: BookText)] {
    var texts: [(String, BookText)] = []
    for name in samples {
      let original = String(decoding: try FixtureFiles.data(name), as: UTF8.self)
      texts.append((name, BookText(data: Data(original.utf8))))
      var lines = original.components(separatedBy: "\n")
      for number in lines.indices where number % 3 == 1 && !lines[number].isEmpty {
        lines[number] += additions[number / 3 % additions.count]
      }
      for number in lines.indices where lines[number].hasPrefix("    ") {
        lines[number] = "\t" + lines[number].dropFirst(4)
      }
      let changed = lines.joined(separator: "\r\n")
      texts.append(("\(name), changed", BookText(data: Data(changed.utf8))))
      // Characters past Latin-1 become `?`.
      let latin = original.replacingOccurrences(of: "e", with: "é")
      let bytes = latin.unicodeScalars.map { $0.value < 0x100 ? UInt8($0.value) : 0x3F }
      texts.append(("\(name), Windows-1252", BookText(data: Data(bytes))))
    }
    return texts
  }

  /// Every piece of the body, each found afresh from the one before it.
  static func pieces(_ text: BookText) -> [TextPiece] {
    let visible = text.bodyBytes
    guard !visible.isEmpty else { return [] }
    var piece = text.piece(containing: visible.lowerBound, in: visible)
    var pieces = [piece]
    while let next = text.piece(after: piece, in: visible) {
      pieces.append(next)
      piece = next
    }
    return pieces
  }

  /// The rows of a paragraph or a long line's piece made the plain way (see the suite).
  static func plainRows(_ text: BookText, _ piece: TextPiece, width: Int) -> [String] {
    let indent = text.indent(at: piece.lineStart)
    let firstPrefix = indent < width / 2 ? indent : 0
    let prefix = piece.layout == .paragraph ? 0 : firstPrefix
    let separators: Set<Unicode.Scalar> =
      piece.layout == .paragraph
      ? [" ", "\t", "\u{0B}", "\u{0C}", "\n", "\r"] : [" ", "\t", "\u{0B}", "\u{0C}"]
    let decoded = text.bytes.string(piece.range)
    let words = decoded.unicodeScalars.split { separators.contains($0) }
      .flatMap { Sanitizer.sanitize(String($0)).split(separator: " ").map(String.init) }
    var rows: [String] = []
    var line = String(repeating: " ", count: firstPrefix)
    var used = firstPrefix
    var hasWord = false
    for word in words {
      let cells = DisplayWidth.cells(word)
      if used + (hasWord ? cells + 1 : cells) <= width {
        line += (hasWord ? " " : "") + word
        used += hasWord ? cells + 1 : cells
        hasWord = true
        continue
      }
      if hasWord {
        rows.append(line)
        (line, used, hasWord) = (String(repeating: " ", count: prefix), prefix, false)
      }
      if used + cells <= width {
        line += word
        used += cells
        hasWord = true
        continue
      }
      for (number, chunk) in DisplayWidth.chunks(word, toCells: max(1, width - used))
        .enumerated()
      {
        if number > 0 {
          rows.append(line)
          (line, used) = (String(repeating: " ", count: prefix), prefix)
        }
        line += chunk
        used += DisplayWidth.cells(chunk)
        hasWord = true
      }
    }
    if hasWord || rows.isEmpty { rows.append(hasWord ? line : "") }
    return rows
  }

  @Test(arguments: [40, 72, 100])
  func theBytesWrapAsTheDecodedTextDoes(width: Int) throws {
    var checked = 0
    var nonASCII = 0
    for (name, text) in try Self.texts() {
      for piece in Self.pieces(text) where piece.layout != .asWritten {
        let rows = text.rows(of: piece, width: width)
        let plain = Self.plainRows(text, piece, width: width)
        #expect(rows.map(\.text) == plain, "\(name), piece at \(piece.range) at \(width)")
        // Each row starts inside the piece, after the row before it.
        let starts = rows.map(\.start)
        #expect(starts.first == piece.range.lowerBound, "\(name)")
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 < $1 }, "\(name): \(starts)")
        #expect(starts.allSatisfy { $0 <= max(piece.range.lowerBound, piece.range.upperBound) })
        checked += 1
        if rows.contains(where: { $0.text.utf8.contains { $0 >= 0x80 } }) { nonASCII += 1 }
      }
    }
    // The samples' paragraphs, and many of them with characters past ASCII.
    #expect(checked > 50)
    #expect(nonASCII > 20, "\(nonASCII) of \(checked)")
  }

  /// A line's end, found eight bytes at a time, is the first `\r` or `\n` a byte at a time
  /// finds, from every offset, with and without a limit (line ends and control bytes at
  /// every place in an eight-byte word, and none at all).
  @Test func lineEndsFoundAWordAtATimeAreTheFirstOnes() throws {
    var bytes = [UInt8](repeating: 0x61, count: 40)
    for (offset, byte) in [(3, 0x0A), (12, 0x0D), (13, 0x0A), (21, 0x0E), (22, 0x09), (30, 0x0D)] {
      bytes[offset] = UInt8(byte)
    }
    let texts =
      try Self.texts().map(\.text) + [
        BookText(data: Data(bytes)), BookText(data: Data(repeating: 0x62, count: 19)),
      ]
    for text in texts {
      let count = text.bytes.count
      for start in 0..<min(count, 3000) {
        for limit in [count, start + 5, start + 9, start + 70] {
          var naive = start
          while naive < min(limit, count), !LineIndex.isLineEnd(text.bytes[naive]) { naive += 1 }
          #expect(text.lineEnd(from: start, limit: limit) == naive, "\(start) limit \(limit)")
        }
      }
    }
  }

  /// A pager's pages, read to the end and back, are the rows of every piece found afresh, in
  /// order, at every width: keeping the pieces and pages found changes nothing.
  @Test(arguments: [40, 72, 100])
  func keptPiecesAndPagesAreTheOnesFoundAfresh(width: Int) throws {
    for (name, text) in try Self.texts() {
      let fresh = Self.pieces(text).flatMap { text.rows(of: $0, width: width) }
      var pager = Pager(text: text, title: "T", width: width, height: 7)
      var shown: [TextRow] = []
      var tops: [Int] = []
      repeat {
        tops.append(pager.top)
        let page = pager.page()
        shown += page.rows
        #expect(pager.page().rows == page.rows, "\(name): a page drawn twice")
      } while pager.nextPage()
      #expect(shown == fresh, "\(name) at \(width)")
      var back: [Int] = [pager.top]
      while pager.previousPage() { back.append(pager.top) }
      #expect(back.reversed() == tops, "\(name): paging back at \(width)")
      // A page opened at any row's start begins with that row, kept pieces or not.
      for row in fresh.prefix(200) {
        pager.go(offset: row.start)
        #expect(pager.page().rows.first == row, "\(name): go to \(row.start)")
      }
    }
  }
}
