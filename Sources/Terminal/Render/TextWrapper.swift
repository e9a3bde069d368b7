/// Word wrapping measured in terminal cells, for long titles, summaries and hints.
package enum TextWrapper {
  /// `text` broken into lines of at most `width` cells at spaces; a word longer than a line
  /// (a URL, or Chinese and Japanese text, which has no spaces) is broken between characters.
  ///
  /// - Parameters:
  ///   - firstPrefix: put before the first line (a label, say); counts towards the width.
  ///   - prefix: put before every other line (usually spaces, to indent them).
  package static func wrap(
    _ text: String, toCells width: Int, firstPrefix: String = "", prefix: String = ""
  ) -> [String] {
    let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    var lines: [String] = []
    var line = firstPrefix
    var lineHasWord = false
    var used = DisplayWidth.cells(firstPrefix)
    func startLine() {
      lines.append(line)
      line = prefix
      used = DisplayWidth.cells(prefix)
      lineHasWord = false
    }
    for word in words {
      let wordWidth = DisplayWidth.cells(word)
      let needed = lineHasWord ? wordWidth + 1 : wordWidth
      if used + needed <= width {
        line += lineHasWord ? " " + word : word
        used += needed
        lineHasWord = true
        continue
      }
      if lineHasWord { startLine() }
      if used + wordWidth <= width {
        line += word
        used += wordWidth
        lineHasWord = true
        continue
      }
      // Too long for any line: fill this one, then whole lines, and keep the tail open.
      // The word is cut in two passes, not one line at a time: re-chunking and copying the
      // rest for every line made a 200 KB word (a URL in an error) take seconds.
      let head = DisplayWidth.chunks(word, toCells: max(1, width - used)).first ?? word
      line += head
      used += DisplayWidth.cells(head)
      lineHasWord = true
      let rest = String(word.dropFirst(head.count))
      for piece in DisplayWidth.chunks(rest, toCells: max(1, width - DisplayWidth.cells(prefix))) {
        startLine()
        line += piece
        used += DisplayWidth.cells(piece)
        lineHasWord = true
      }
    }
    if lineHasWord || lines.isEmpty { lines.append(line) }
    return lines.map(trimmingTrailingSpaces)
  }

  /// `items` joined with ` · `, wrapped so no line is wider than `width` and no item is split
  /// unless it alone is wider than a line (key hints, query summaries).
  package static func join(_ items: [String], separator: String = " · ", toCells width: Int)
    -> [String]
  {
    var lines: [String] = []
    var line = ""
    for item in items where !item.isEmpty {
      if line.isEmpty {
        line = item
      } else if DisplayWidth.cells(line + separator + item) <= width {
        line += separator + item
      } else {
        lines.append(line)
        line = item
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines.flatMap { DisplayWidth.cells($0) > width ? wrap($0, toCells: width) : [$0] }
  }

  /// `line` without spaces at its end (they would only make copies and captures differ).
  static func trimmingTrailingSpaces(_ line: String) -> String {
    var result = line
    while result.last == " " { result.removeLast() }
    return result
  }
}
