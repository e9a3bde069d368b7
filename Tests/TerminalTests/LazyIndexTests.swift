import Foundation
import Testing

@testable import Terminal

/// A large text's first page is shown before its line index is built (issue 36): only the
/// blocks the page needs are indexed, the licence's lines are counted from the end, and the
/// index finished later answers as one built at once.
@Suite struct LazyIndexTests {
  /// A PG-style text of about `megabytes` MB: `Chapter 1`, then lines of about 64 bytes, then
  /// a licence of `licence` lines.
  static func text(megabytes: Int, licence: Int) -> (data: Data, lines: Int) {
    var text = "The Project Gutenberg eBook of Big\r\n\r\n"
    text += "*** START OF THE PROJECT GUTENBERG EBOOK BIG ***\r\n\r\nChapter 1\r\n\r\n"
    let line = "It was a dark and stormy night; the rain fell in torrents, except\r\n"
    let block = String(repeating: line, count: 1024)
    var data = Data(text.utf8)
    while data.count < megabytes << 20 { data.append(contentsOf: block.utf8) }
    data.append(contentsOf: "\r\n*** END OF THE PROJECT GUTENBERG EBOOK BIG ***\r\n".utf8)
    data.append(contentsOf: String(repeating: "Licence text.\r\n", count: licence).utf8)
    let lines = data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    return (data, lines)
  }

  @Test func theFirstPageComesBeforeTheIndex() throws {
    let (data, lines) = Self.text(megabytes: 12, licence: 17)
    let text = BookText(data: data)
    #expect(!text.index.isComplete)
    let pager = Pager(text: text, title: "Big", width: 80, height: 22)
    #expect(pager.page().rows.first?.text == "Chapter 1")
    #expect(pager.statusLine.hasPrefix("Big · line 1 · "))
    #expect(pager.statusLine.hasSuffix(" in book · 0%"))
    #expect(text.foldedHeaderLines == 4)
    // The blank line and the END line before the licence are folded with it.
    #expect(text.foldedFooterLines == 19)
    #expect(!text.index.isComplete, "the first page indexed the whole text")

    text.index.indexAll()
    #expect(text.index.isComplete)
    #expect(text.lineCount == lines)
    #expect(pager.statusLine.hasPrefix("Big · line 1 of \(TextFormat.grouped(lines - 23)) · "))
    #expect(text.body == 4..<(lines - 19))
  }

  /// Line numbers and starts asked for in any order, the index built on the way, match those
  /// counted from the bytes.
  @Test func aLazyIndexAnswersAsACountDoes() throws {
    let (data, lines) = Self.text(megabytes: 9, licence: 3)
    let text = BookText(data: data)
    let bytes = [UInt8](data)
    var starts = [0]
    for (offset, byte) in bytes.enumerated() where byte == 0x0A { starts.append(offset + 1) }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<40 {
      var offset = Int.random(in: 0..<bytes.count, using: &generator)
      // A line's end belongs to it by its first byte: not the `\n` of a `\r\n`.
      if bytes[offset] == 0x0A, offset > 0, bytes[offset - 1] == 0x0D { offset -= 1 }
      let number = starts.lastIndex { $0 <= offset } ?? 0
      #expect(text.index.lineNumber(of: offset, in: text.bytes) == number, "\(offset)")
      #expect(text.index.lineStart(of: offset, in: text.bytes) == starts[number], "\(offset)")
      let line = Int.random(in: 0..<lines, using: &generator)
      #expect(text.index.start(ofLine: line, in: text.bytes) == starts[line], "line \(line)")
    }
    #expect(text.lineCount == lines)
  }
}
