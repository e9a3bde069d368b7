/// Cutting lines into pieces, and pieces into rows.
extension BookText {
  /// A line longer than this is wrapped in pieces this long (moved on to a word's start), so
  /// a 50 MB paragraph on one line costs one piece's wrapping per page.
  static let pieceSize = 32 * 1024
  /// How far past a piece's nominal start a word start is looked for.
  static let anchorWindow = 1024

  /// Spaces and tabs (and the rarer vertical tab and form feed) between words.
  @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C
  }

  /// Where piece `number` of the line starting at `lineStart` begins: `number × pieceSize`
  /// bytes in (which must be inside the line), moved on to the next word's start, or to the
  /// next character's when there is no space near. A line end found first is returned as is.
  func anchor(lineStart: Int, number: Int, limit: Int) -> Int {
    guard number > 0 else { return lineStart }
    let target = lineStart + number * Self.pieceSize
    guard target < limit else { return limit }
    let windowEnd = min(limit, target + Self.anchorWindow)
    var position = target
    while position < windowEnd {
      let byte = bytes[position]
      if LineIndex.isLineEnd(byte) { return position }
      if !Self.isSpace(byte), Self.isSpace(bytes[position - 1]) { return position }
      position += 1
    }
    position = target
    while position < limit, bytes[position] & 0xC0 == 0x80 { position += 1 }
    return position
  }

  /// Piece `number` of the line at `lineStart`, which begins at `start`; it ends at the line's
  /// end, the next piece's start or `limit`, whichever comes first.
  func piece(lineStart: Int, number: Int, start: Int, limit: Int) -> TextPiece {
    let scanEnd = min(limit, lineStart + (number + 1) * Self.pieceSize)
    var position = start
    while position < scanEnd, !LineIndex.isLineEnd(bytes[position]) { position += 1 }
    if position < scanEnd || scanEnd == limit {
      return TextPiece(
        range: start..<position, lineStart: lineStart, number: number, endsLine: true)
    }
    let next = anchor(lineStart: lineStart, number: number + 1, limit: limit)
    let endsLine = next >= limit || LineIndex.isLineEnd(bytes[next])
    return TextPiece(
      range: start..<min(next, limit), lineStart: lineStart, number: number, endsLine: endsLine)
  }

  /// The piece holding byte `offset` of `visible` (a line end belongs to its line); `cache`
  /// keeps the short lines' pieces found (a pager's).
  func piece(containing offset: Int, in visible: Range<Int>, cache: RowCache? = nil)
    -> TextPiece
  {
    guard let cache else { return findPiece(containing: offset, in: visible) }
    return cache.piece(containing: offset, in: visible) {
      findPiece(containing: offset, in: visible)
    }
  }

  private func findPiece(containing offset: Int, in visible: Range<Int>) -> TextPiece {
    var offset = min(max(offset, visible.lowerBound), visible.upperBound)
    // The second byte of `\r\n` is not where a line can be said to end.
    if offset > visible.lowerBound, offset < bytes.count, bytes[offset] == 0x0A,
      bytes[offset - 1] == 0x0D
    {
      offset -= 1
    }
    let lineStart = max(index.lineStart(of: offset, in: bytes), visible.lowerBound)
    let shortEnd = lineEnd(
      from: lineStart, limit: min(visible.upperBound, lineStart + Self.pieceSize + 1))
    if shortEnd - lineStart <= Self.pieceSize {
      return piece(ofShortLine: lineStart..<shortEnd, in: visible)
    }
    var number = (offset - lineStart) / Self.pieceSize
    var start = anchor(lineStart: lineStart, number: number, limit: visible.upperBound)
    while number > 0,
      start > offset || start >= visible.upperBound
        || LineIndex.isLineEnd(bytes[start])
    {
      number -= 1
      start = anchor(lineStart: lineStart, number: number, limit: visible.upperBound)
    }
    return piece(lineStart: lineStart, number: number, start: start, limit: visible.upperBound)
  }

  /// The piece holding the short line `line`: its paragraph when that is prose, else the
  /// line itself, kept as written.
  private func piece(ofShortLine line: Range<Int>, in visible: Range<Int>) -> TextPiece {
    let paragraphs = Paragraphs(text: self)
    guard !paragraphs.isBlankLine(line) else {
      return TextPiece(
        range: line, lineStart: line.lowerBound, number: 0, endsLine: true, layout: .asWritten)
    }
    if linesAreParagraphs {
      // Made from an EPUB: its lines say what they are (a paragraph at the margin).
      return TextPiece(
        range: line, lineStart: line.lowerBound, number: 0, endsLine: true,
        layout: indent(at: line.lowerBound) == 0 ? .paragraph : .asWritten)
    }
    let block = paragraphs.block(around: line, in: visible)
    if block.isProse, let first = block.lines.first, let last = block.lines.last {
      return TextPiece(
        range: first.lowerBound..<last.upperBound, lineStart: first.lowerBound, number: 0,
        endsLine: true, layout: .paragraph)
    }
    return TextPiece(
      range: line, lineStart: line.lowerBound, number: 0, endsLine: true, layout: .asWritten)
  }

  /// The piece after `piece` within `visible`, or nil at its end.
  func piece(after piece: TextPiece, in visible: Range<Int>, cache: RowCache? = nil)
    -> TextPiece?
  {
    if !piece.endsLine {
      return self.piece(
        lineStart: piece.lineStart, number: piece.number + 1, start: piece.range.upperBound,
        limit: visible.upperBound)
    }
    guard piece.range.upperBound < visible.upperBound else { return nil }
    let next = nextLineStart(afterEnd: piece.range.upperBound)
    guard next < visible.upperBound else { return nil }
    return self.piece(containing: next, in: visible, cache: cache)
  }

  /// The piece before `piece` within `visible`, or nil at its start.
  func piece(before piece: TextPiece, in visible: Range<Int>, cache: RowCache? = nil)
    -> TextPiece?
  {
    if piece.number > 0 {
      let start = anchor(
        lineStart: piece.lineStart, number: piece.number - 1, limit: visible.upperBound)
      return self.piece(
        lineStart: piece.lineStart, number: piece.number - 1, start: start,
        limit: visible.upperBound)
    }
    guard piece.lineStart > visible.lowerBound else { return nil }
    return self.piece(
      containing: previousLineEnd(beforeStart: piece.lineStart), in: visible, cache: cache)
  }
}
