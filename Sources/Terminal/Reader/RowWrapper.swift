/// Puts the rows of a wrapped piece together: words joined by one space up to the width, the
/// rest moved to the next row (after its prefix), a word longer than a row cut between
/// characters. A row is gathered as bytes and made a string once.
///
/// A value type with mutating methods rather than local state captured by nested functions:
/// captured state is checked for exclusive access at run time on every use.
struct RowWrapper {
  private let bytes: TextBytes
  private let width: Int
  /// The cells each row after the first starts with.
  private let prefix: Int
  private(set) var rows: [TextRow] = []
  private var line: [UInt8]
  private var used: Int
  private var hasWord = false
  private var rowStart: Int

  /// Rows of `width` cells from byte `start`, the first starting with `firstPrefix` spaces
  /// and each later one with `prefix`.
  init(_ bytes: TextBytes, width: Int, firstPrefix: Int, prefix: Int, start: Int) {
    self.bytes = bytes
    self.width = width
    self.prefix = prefix
    line = [UInt8](repeating: 0x20, count: firstPrefix)
    line.reserveCapacity(width * 2)
    used = firstPrefix
    rowStart = start
  }

  private mutating func startRow(at start: Int) {
    rows.append(TextRow(start: rowStart, text: String(decoding: line, as: UTF8.self)))
    line.removeAll(keepingCapacity: true)
    line.append(contentsOf: repeatElement(0x20, count: prefix))
    used = prefix
    hasWord = false
    rowStart = max(start, rowStart + 1)
  }

  private mutating func append(_ word: WordScanner.Word) {
    if let text = word.text {
      line.append(contentsOf: text.utf8)
    } else if let base = bytes.base {
      line.append(contentsOf: UnsafeBufferPointer(start: base + word.start, count: word.length))
    }
  }

  /// Adds `word` after the words before it.
  mutating func add(_ word: WordScanner.Word) {
    let needed = hasWord ? word.cells + 1 : word.cells
    if used + needed <= width {
      if hasWord { line.append(0x20) }
      append(word)
      used += needed
      hasWord = true
      return
    }
    if hasWord { startRow(at: word.start) }
    if used + word.cells <= width {
      append(word)
      used += word.cells
      hasWord = true
      return
    }
    // Longer than a row: cut between characters. Offsets inside a word that sanitising
    // changed are estimated by characters (never past the word's bytes).
    let text = word.text ?? bytes.string(word.start..<(word.start + word.length))
    var consumed = 0
    for (number, chunk) in DisplayWidth.chunks(text, toCells: max(1, width - used)).enumerated() {
      if number > 0 { startRow(at: word.start + min(consumed, word.length - 1)) }
      line.append(contentsOf: chunk.utf8)
      used += DisplayWidth.cells(chunk)
      hasWord = true
      consumed += word.isExact ? bytes.byteCount(of: chunk) : chunk.unicodeScalars.count
    }
  }

  /// The rows, the last one ended (every piece has at least one row: a blank line is one empty
  /// row).
  mutating func finish() -> [TextRow] {
    if hasWord || rows.isEmpty {
      rows.append(
        TextRow(start: rowStart, text: hasWord ? String(decoding: line, as: UTF8.self) : ""))
    }
    return rows
  }
}
