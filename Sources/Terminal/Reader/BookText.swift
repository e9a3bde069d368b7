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
  /// The headings its source marked (an EPUB's h1–h3), for the table of contents; nil for a
  /// plain text, whose headings are found by their shape.
  package let outline: [TableOfContents.Entry]?
  /// True when each line at the margin is a paragraph of its own and each line set in is kept
  /// as written (the text made from an EPUB, see ``XHTMLText``), rather than found by shape.
  let linesAreParagraphs: Bool
  /// True for the start of a longer text still being made (an EPUB's first documents): its
  /// end, its line count and how far through it a place is are not known yet.
  package let isPartial: Bool

  /// How many lines there are in all.
  package var lineCount: Int { index.lineCount }
  /// The first byte of the text (after a UTF-8 byte order mark) and its end.
  package var allBytes: Range<Int> { index.origin..<bytes.count }

  /// Every byte of the text as the reader holds it (for a text made from an EPUB: what it was
  /// turned into).
  package var data: Data { Data(bytes.buffer(0..<bytes.count)) }

  /// The text in `data` (copied).
  package init(data: Data) {
    self.init(bytes: TextBytes(data: data))
  }

  /// The text of the file at `path`, mapped rather than read.
  package init(contentsOfFile path: String) throws {
    self.init(bytes: try TextBytes(path: path))
  }

  /// The text an EPUB was turned into (`bytes`, adopted), with its headings; `isPartial` for
  /// the start of it.
  init(
    epubText bytes: UnsafeMutableBufferPointer<UInt8>, outline: [TableOfContents.Entry],
    isPartial: Bool
  ) {
    self.init(
      bytes: TextBytes(adopting: bytes), outline: outline, linesAreParagraphs: true,
      isPartial: isPartial)
  }

  init(
    bytes: TextBytes, outline: [TableOfContents.Entry]? = nil, linesAreParagraphs: Bool = false,
    isPartial: Bool = false
  ) {
    self.bytes = bytes
    self.outline = outline
    self.linesAreParagraphs = linesAreParagraphs
    self.isPartial = isPartial
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
    let found = Self.findBody(bytes, index: index, longLines: linesAreParagraphs)
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
    lineEnd(from: start, limit: bytes.count)
  }

  /// The first line end at or after `start`, looking no further than `limit`.
  func lineEnd(from start: Int, limit: Int) -> Int {
    let end = min(limit, bytes.count)
    guard let base = bytes.base, start < end else { return start }
    var position = start
    // Eight bytes at a time while none is below 0x0E (so none ends a line): a byte below it
    // sets its high bit in `(word - 0x0E0E…) & ~word`.
    while position + 8 <= end {
      let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
      if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 != 0 { break }
      position += 8
    }
    while position < end, !LineIndex.isLineEnd(base[position]) { position += 1 }
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
