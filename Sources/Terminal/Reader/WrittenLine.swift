/// A line kept as written (verse, a table's row, a centred line, a rule): its words with the
/// spacing between them as in the file (tabs to 4), so columns stay aligned. Only a line wider
/// than the window is cut, between words, its later rows indented two cells under its own
/// indentation, as a long line of verse is set in a narrow book.
struct WrittenLine {
  /// A word and the spacing before it.
  private struct Token {
    /// Cells of spacing before it (the indentation, for the first).
    let gap: Int
    /// Its text, sanitised.
    let text: String
    /// Where it starts in the file, and how many bytes it came from.
    let start: Int
    let length: Int
    let cells: Int
    /// True when `text` is exactly its bytes (so characters map to offsets).
    let isExact: Bool
  }

  /// Indentation from which a line is taken to be centred or set to the right.
  static let setFarIn = 10

  /// What a rule (`-----`, `* * *`) is drawn with.
  static let ruleCharacters: Set<Character> = ["-", "*", "=", "_", "~", "#", ".", "—"]

  private let tokens: [Token]
  private let start: Int
  private let bytes: TextBytes

  /// The line in `range` of `bytes` (line ends excluded).
  init(_ bytes: TextBytes, _ range: Range<Int>) {
    self.bytes = bytes
    start = range.lowerBound
    var tokens: [Token] = []
    var column = 0
    var gap = 0
    var position = range.lowerBound
    while position < range.upperBound {
      let byte = bytes[position]
      if byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C {
        let cells = byte == 0x09 ? 4 - column % 4 : 1
        column += cells
        gap += cells
        position += 1
        continue
      }
      let wordStart = position
      while position < range.upperBound {
        let next = bytes[position]
        if next == 0x20 || next == 0x09 || next == 0x0B || next == 0x0C { break }
        position += 1
      }
      let raw = bytes.string(wordStart..<position)
      let clean = Sanitizer.sanitize(raw)
      guard !clean.isEmpty else { continue }
      let cells = DisplayWidth.cells(clean)
      tokens.append(
        Token(
          gap: gap, text: clean, start: wordStart, length: position - wordStart, cells: cells,
          isExact: clean == raw))
      column += cells
      gap = 0
    }
    self.tokens = tokens
  }

  /// The rows at `width` cells: one row, exactly as written, when it fits.
  func rows(width: Int) -> [TextRow] {
    guard let first = tokens.first else { return [TextRow(start: start, text: "")] }
    let content = tokens.dropFirst().reduce(first.cells) { $0 + $1.gap + $1.cells }
    // A rule wider than the window is a rule as wide as the window, not two.
    if content > width, tokens.allSatisfy({ $0.text.allSatisfy(Self.ruleCharacters.contains) }) {
      let rule = tokens.map { String(repeating: " ", count: $0.gap) + $0.text }.joined()
      return [TextRow(start: start, text: DisplayWidth.chunks(rule, toCells: width).first ?? "")]
    }
    // A line set far in (centred, or set to the right: a date, a signature) that would run
    // past the edge moves left as far as it must, never its words; verse, set in by a little,
    // keeps its indentation, which tells its lines apart, and is cut instead.
    let lead =
      first.gap + content <= width
      ? first.gap
      : first.gap >= Self.setFarIn && content <= width - 2
        ? width - content : min(first.gap, width / 2)
    let hanging = min(lead + 2, width / 2)
    var rows: [TextRow] = []
    var line = ""
    var used = 0
    var hasWord = false
    var rowStart = start
    func startRow(at offset: Int) {
      rows.append(TextRow(start: rowStart, text: line))
      line = String(repeating: " ", count: hanging)
      used = hanging
      hasWord = false
      rowStart = max(offset, rowStart + 1)
    }
    for (number, token) in tokens.enumerated() {
      let gap = number == 0 ? lead : token.gap
      if !hasWord, number == 0 {
        line = String(repeating: " ", count: lead)
        used = lead
      }
      if hasWord, used + gap + token.cells <= width {
        line += String(repeating: " ", count: gap) + token.text
        used += gap + token.cells
        continue
      }
      if hasWord { startRow(at: token.start) }
      if used + token.cells <= width {
        line += token.text
        used += token.cells
        hasWord = true
        continue
      }
      // Longer than a row: cut between characters, each row filled.
      var consumed = 0
      var rest = Substring(token.text)
      while let chunk = DisplayWidth.chunks(String(rest), toCells: max(1, width - used)).first {
        if consumed > 0 { startRow(at: token.start + min(consumed, token.length - 1)) }
        line += chunk
        used += DisplayWidth.cells(chunk)
        hasWord = true
        consumed += token.isExact ? bytes.byteCount(of: chunk) : chunk.unicodeScalars.count
        rest = rest.dropFirst(chunk.count)
        if rest.isEmpty { break }
      }
    }
    rows.append(TextRow(start: rowStart, text: line))
    return rows
  }
}
