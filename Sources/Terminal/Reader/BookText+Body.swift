/// Finding the book between the Project Gutenberg header and licence.
extension BookText {
  /// How many lines the marker search looks at from each end.
  static let markerWindow = 3000
  /// How many bytes it looks at from each end (a PG header or licence is about 20 KB).
  static let markerBytes = 1 << 20
  /// Longer lines are not markers (and are not decoded to find out).
  static let markerLength = 1000

  /// The bytes from the start of the first line after the START marker to the end of the last
  /// line before the END marker, blank lines at either end left out.
  static func findBody(_ bytes: TextBytes, index: LineIndex) -> Range<Int> {
    let origin = index.origin
    let count = bytes.count
    // A line end within the first `markerBytes`, else nil (a header's lines are short, and a
    // one-line book must not be scanned to its end here).
    func end(from start: Int) -> Int? {
      var position = start
      let limit = min(count, origin + markerBytes)
      while position < limit, !LineIndex.isLineEnd(bytes[position]) { position += 1 }
      return position < limit || limit == count ? position : nil
    }
    func next(afterEnd end: Int) -> Int {
      if end + 1 < count, bytes[end] == 0x0D, bytes[end + 1] == 0x0A { return end + 2 }
      return end + 1
    }
    // Only a line with a `*` or starting with `E`/`e` can be a marker (see `isMarker`): the
    // others, nearly all, are not decoded (decoding and searching each took most of the time
    // a book takes to open).
    func text(_ range: Range<Int>) -> String? {
      guard range.count <= markerLength, let first = range.first else { return nil }
      guard bytes[first] | 0x20 == 0x65 || range.contains(where: { bytes[$0] == 0x2A }) else {
        return nil
      }
      return bytes.string(range)
    }
    var start = origin
    var line = origin
    var seen = 0
    while line < count, seen < markerWindow, let lineEnd = end(from: line) {
      if let text = text(line..<lineEnd),
        isMarker(text, ["START OF THE PROJECT", "START OF THIS PROJECT", "START OF PROJECT"])
      {
        start = next(afterEnd: lineEnd)
        break
      }
      line = next(afterEnd: lineEnd)
      seen += 1
    }
    start = min(start, count)
    // From the end backwards: the earliest END marker within the window wins.
    var bodyEnd = count
    var lineEnd = count
    if lineEnd > start, LineIndex.isLineEnd(bytes[lineEnd - 1]) {
      lineEnd -= 1
      if lineEnd > start, bytes[lineEnd] == 0x0A, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
    }
    seen = 0
    while lineEnd > start, seen < markerWindow, count - lineEnd < markerBytes {
      // A line longer than a marker can be ends the search: it is the book's text (and its
      // start, which only the whole text's index knows, is not needed).
      var lineStart = lineEnd
      while lineStart > start, lineEnd - lineStart <= markerLength,
        !LineIndex.isLineEnd(bytes[lineStart - 1])
      {
        lineStart -= 1
      }
      guard lineEnd - lineStart <= markerLength else { break }
      if let text = text(lineStart..<lineEnd),
        isMarker(text, ["END OF THE PROJECT", "END OF THIS PROJECT", "END OF PROJECT"])
      {
        bodyEnd = lineStart
      }
      guard lineStart > start else { break }
      lineEnd = lineStart - 1
      if bytes[lineEnd] == 0x0A, lineEnd > start, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      seen += 1
    }
    return trimBlankLines(bytes, index: index, start..<bodyEnd)
  }

  /// `range` without its blank lines at either end, ending at its last line's end.
  private static func trimBlankLines(_ bytes: TextBytes, index: LineIndex, _ range: Range<Int>)
    -> Range<Int>
  {
    func isBlank(_ position: Int) -> Bool {
      bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0C
        || LineIndex.isLineEnd(bytes[position])
    }
    // The first byte of the body that is not blank, and the last.
    var first = range.lowerBound
    while first < range.upperBound, isBlank(first) { first += 1 }
    var last = range.upperBound
    while last > first, isBlank(last - 1) { last -= 1 }
    guard first < last else { return first..<first }
    let start = index.lineStart(of: first, in: bytes)
    var end = last
    while end < range.upperBound, !LineIndex.isLineEnd(bytes[end]) { end += 1 }
    return max(start, range.lowerBound)..<end
  }

  /// True when `text` is a PG START or END line with one of `words`.
  static func isMarker(_ text: String, _ words: [String]) -> Bool {
    guard text.contains("***") || text.uppercased().hasPrefix("END OF") else { return false }
    let upper = text.uppercased()
    guard upper.contains("PROJECT GUTENBERG") else { return false }
    return words.contains { upper.contains($0) }
  }
}
