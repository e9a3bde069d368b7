import Foundation

/// A plain-text book kept as its bytes (a read-only mapping of the file) with a sparse line
/// index, so a 50 MB book opens in milliseconds whatever its line lengths: text is decoded and
/// sanitised only where it is shown or searched.
///
/// The Project Gutenberg header (everything up to the `*** START OF ...` line) and licence
/// footer (from the `*** END OF ...` line) are found once, so they can be folded away.
package struct BookText: Sendable {
  let bytes: TextBytes
  let index: LineIndex
  /// The lines of the book itself, without the PG header and footer (all lines when there are
  /// no markers). Its end needs the line count: the whole text indexed.
  package var body: Range<Int> {
    bodyBytes.isEmpty
      ? foldedHeaderLines..<foldedHeaderLines
      : foldedHeaderLines..<max(foldedHeaderLines, lineCount - foldedFooterLines)
  }
  /// Lines folded before the body (the PG header).
  package let foldedHeaderLines: Int
  /// Lines folded after the body (the licence), counted from the end without the index.
  package let foldedFooterLines: Int
  /// The bytes of those lines, from the first one's start to the last one's end.
  package let bodyBytes: Range<Int>
  /// Why the file is not text (NUL bytes, or mostly not UTF-8 at its start), or nil.
  package let notText: String?
  /// The width its prose was wrapped at, in characters (see ``LineShape/wrapColumns(of:body:)``).
  let wrapColumns: Int
  /// Bytes per word of its prose (see ``LineShape/bytesPerWord(of:body:)``).
  package let bytesPerWord: Double

  /// How many lines there are in all.
  package var lineCount: Int { index.lineCount }
  /// The first byte of the text (after a UTF-8 byte order mark) and its end.
  package var allBytes: Range<Int> { index.origin..<bytes.count }

  /// The text in `data` (copied).
  package init(data: Data) {
    self.init(bytes: TextBytes(data: data))
  }

  /// The text of the file at `path`, mapped rather than read.
  package init(contentsOfFile path: String) throws {
    self.init(bytes: try TextBytes(path: path))
  }

  init(bytes: TextBytes) {
    self.bytes = bytes
    // A UTF-8 byte order mark would show as a stray character on the first line.
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let origin = bytes.count >= 3 && (0..<3).allSatisfy { bytes[$0] == bom[$0] } ? 3 : 0
    notText = Self.notTextReason(
      bytes.buffer(origin..<min(bytes.count, origin + 8192)), encoding: bytes.encoding)
    guard notText == nil else {
      // Refused as it is: no pass over the rest (2 GB of a sparse file took seconds).
      index = LineIndex(TextBytes(data: Data()), origin: 0)
      foldedHeaderLines = 0
      foldedFooterLines = 0
      bodyBytes = origin..<origin
      wrapColumns = LineShape.narrowestWrap
      bytesPerWord = 6
      return
    }
    index = LineIndex(bytes, origin: origin)
    let found = Self.findBody(bytes, index: index)
    bodyBytes = found
    wrapColumns = LineShape.wrapColumns(of: bytes, body: found)
    bytesPerWord = LineShape.bytesPerWord(of: bytes, body: found)
    foldedHeaderLines = index.lineNumber(of: found.lowerBound, in: bytes)
    foldedFooterLines = found.isEmpty ? 0 : Self.linesAfter(found.upperBound, in: bytes)
  }

  /// The lines after the one that ends at `end` (the first byte of its line end, or the text's
  /// end): the line ends from there on, less the one ending it, and a last line left open.
  private static func linesAfter(_ end: Int, in bytes: TextBytes) -> Int {
    var ends = 0
    var position = end
    while position < bytes.count {
      let byte = bytes[position]
      if byte == 0x0D || (byte == 0x0A && (position == end || bytes[position - 1] != 0x0D)) {
        ends += 1
      }
      position += 1
    }
    let open = bytes.count > end && !LineIndex.isLineEnd(bytes[bytes.count - 1]) ? 1 : 0
    return max(0, ends + open - 1)
  }

  /// Where line `number` (from 0, clamped to the text) starts.
  package func offset(ofLine number: Int) -> Int {
    guard lineCount > 0 else { return index.origin }
    return index.start(ofLine: min(max(number, 0), lineCount - 1), in: bytes)
  }

  /// The bytes of line `number` (line ends excluded).
  func lineRange(_ number: Int) -> Range<Int> {
    let start = index.start(ofLine: number, in: bytes)
    return start..<lineEnd(from: start)
  }

  /// The first line end (or the end of the text) at or after `start`.
  func lineEnd(from start: Int) -> Int {
    var position = start
    while position < bytes.count, !LineIndex.isLineEnd(bytes[position]) { position += 1 }
    return position
  }

  /// The first line end at or after `start`, looking no further than `limit`.
  func lineEnd(from start: Int, limit: Int) -> Int {
    var position = start
    let end = min(limit, bytes.count)
    while position < end, !LineIndex.isLineEnd(bytes[position]) { position += 1 }
    return position
  }

  /// The start of the line after the one ending at `end` (a line end's first byte).
  func nextLineStart(afterEnd end: Int) -> Int {
    guard end < bytes.count else { return bytes.count }
    if bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A { return end + 2 }
    return end + 1
  }

  /// The end of the line before the one starting at `start` (which must not be the first).
  func previousLineEnd(beforeStart start: Int) -> Int {
    var end = start - 1
    if bytes[end] == 0x0A, end > index.origin, bytes[end - 1] == 0x0D { end -= 1 }
    return end
  }

  /// The raw text of line `number` (not sanitised).
  func rawLine(_ number: Int) -> String {
    bytes.string(lineRange(number))
  }

  /// Line `number` safe for a terminal: escapes and control characters removed by the
  /// ``Sanitizer``, tabs expanded, and the leading indentation (poetry, letters) kept.
  package func line(_ number: Int) -> String {
    text(of: lineRange(number))
  }

  /// The line in `range` safe for a terminal, its indentation kept.
  func text(of range: Range<Int>) -> String {
    let text = Sanitizer.sanitize(bytes.string(range))
    guard !text.isEmpty else { return "" }
    return String(repeating: " ", count: indent(at: range.lowerBound)) + text
  }

  /// The indentation, in cells, of the line starting at `start` (at most 40; tabs to 4).
  func indent(at start: Int) -> Int {
    var cells = 0
    var position = start
    while position < bytes.count, cells < 40 {
      switch bytes[position] {
      case 0x20: cells += 1
      case 0x09: cells += 4 - cells % 4
      default: return cells
      }
      position += 1
    }
    return min(cells, 40)
  }

}
