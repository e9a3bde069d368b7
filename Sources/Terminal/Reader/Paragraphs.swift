/// The paragraphs of a text: the runs of lines Project Gutenberg wrapped at about 70 columns,
/// told apart from the lines that must stay as written (verse, tables, indented blocks, centred
/// lines, rules), so that prose is joined again and wrapped to the window.
///
/// Everything here depends only on the bytes near a place, never on the width or on where the
/// reader came from: the same offset is always in the same paragraph, so positions survive any
/// width and a page is found without reading the book from its start.
struct Paragraphs {
  /// The text.
  let text: BookText
  private var bytes: TextBytes { text.bytes }

  /// A paragraph longer than this is cut at the first line start at or after each multiple of
  /// it (an absolute offset), so finding the paragraph around a place scans a bounded stretch
  /// even in a text with no blank lines at all.
  static let cut = 16 * 1024

  /// True when the line in `range` is empty or only spaces and tabs.
  func isBlankLine(_ range: Range<Int>) -> Bool {
    var position = range.lowerBound
    while position < range.upperBound {
      let byte = bytes[position]
      guard byte == 0x20 || byte == 0x09 || byte == 0x0C else { return false }
      position += 1
    }
    return true
  }

  /// The lines (each a range without its line end) of the paragraph that holds the short,
  /// non-blank line `line`, within `visible`: the lines around it up to a blank line, a line
  /// longer than a piece, the visible text's ends, or a cut (``cut``).
  func paragraph(around line: Range<Int>, in visible: Range<Int>) -> [Range<Int>] {
    // A line well past the margin is a paragraph kept on one line, never part of another.
    if isPastMargin(line) { return [line] }
    let cut = line.lowerBound / Self.cut
    let floor = max(visible.lowerBound, cut * Self.cut)
    let ceiling = (cut + 1) * Self.cut
    var before: [Range<Int>] = []
    var start = line.lowerBound
    while start > visible.lowerBound {
      let end = text.previousLineEnd(beforeStart: start)
      let lineStart = max(text.index.lineStart(of: end, in: bytes), visible.lowerBound)
      guard lineStart >= floor, end - lineStart <= BookText.pieceSize,
        !isBlankLine(lineStart..<end), !isPastMargin(lineStart..<end)
      else { break }
      before.append(lineStart..<end)
      start = lineStart
    }
    var lines = before.reversed() + [line]
    var end = line.upperBound
    while end < visible.upperBound {
      let next = text.nextLineStart(afterEnd: end)
      guard next < visible.upperBound, next < ceiling else { break }
      let nextEnd = text.lineEnd(
        from: next, limit: min(visible.upperBound, next + BookText.pieceSize + 1))
      guard nextEnd - next <= BookText.pieceSize, !isBlankLine(next..<nextEnd),
        !isPastMargin(next..<nextEnd)
      else { break }
      lines.append(next..<nextEnd)
      end = nextEnd
    }
    return lines
  }

  /// True when the line in `range` runs well past the margin the prose was wrapped at.
  func isPastMargin(_ range: Range<Int>) -> Bool {
    let limit = text.wrapColumns + 12
    guard range.count > limit else { return false }
    var characters = 0
    for position in range where bytes[position] & 0xC0 != 0x80 {
      characters += 1
      if characters > limit { return true }
    }
    return false
  }

  /// The lines of the block that holds the short, non-blank line `line`, and whether they are
  /// prose to join. Within its paragraph, a block ends at a line PG's wrapping did not end (the
  /// next word would have fitted: a heading above the text, the last line of a paragraph in a
  /// text without blank lines, a line of verse) and before an indented line (a paragraph's
  /// indented first line, a line of verse or of a quotation set in).
  func block(around line: Range<Int>, in visible: Range<Int>) -> (
    lines: ArraySlice<Range<Int>>, isProse: Bool
  ) {
    let lines = paragraph(around: line, in: visible)
    let shapes = lines.map { LineShape(bytes, $0) }
    let wrap = text.wrapColumns
    func continues(_ number: Int) -> Bool {
      shapes[number + 1].indent == 0
        && LineShape.isFull(shapes[number], before: shapes[number + 1], wrap: wrap)
    }
    let here = lines.firstIndex { $0.lowerBound == line.lowerBound } ?? 0
    var first = here
    while first > 0, continues(first - 1) { first -= 1 }
    var last = here
    while last < lines.count - 1, continues(last) { last += 1 }
    return (lines[first...last], LineShape.isProse(Array(shapes[first...last]), wrap: wrap))
  }
}
