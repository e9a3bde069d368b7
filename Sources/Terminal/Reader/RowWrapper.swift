/// Wraps the words of a stretch of a text's bytes into rows: words joined by one space up to
/// the width, the rest moved to the next row (after its prefix), a word longer than a row cut
/// between characters. A row is gathered as bytes and made a string once.
///
/// A word of printable ASCII (nearly every word of a Project Gutenberg text) is only its bytes,
/// copied as they are: no string is made and no character looked at. Only a word with other
/// bytes is decoded, sanitised (escapes and control characters go; a word they leave empty is
/// skipped) and measured by grapheme. A value type with mutating methods and one loop over the
/// bytes, rather than state captured by nested functions and closures: captured state is
/// checked for exclusive access at run time on every use (a quarter of the time a book took to
/// reflow).
struct RowWrapper {
  /// A word that is not printable ASCII, sanitised: its text, where it starts, how many bytes
  /// of the text it came from, and its width.
  struct Word {
    let text: String
    let start: Int
    let length: Int
    let cells: Int
    /// True when the text is exactly the bytes (so its characters map to byte offsets).
    let isExact: Bool
  }

  private let bytes: TextBytes
  private let width: Int
  /// The cells each row after the first starts with.
  private let prefix: Int
  private var rows: [TextRow] = []
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

  /// Adds the words of `range`, which spaces and tabs separate (and line ends when
  /// `acrossLines`: a paragraph's lines joined).
  mutating func wrap(_ range: Range<Int>, acrossLines: Bool) {
    guard let base = bytes.base else { return }
    var position = range.lowerBound
    let end = range.upperBound
    @inline(__always) func separates(_ byte: UInt8) -> Bool {
      BookText.isSpace(byte) || (acrossLines && LineIndex.isLineEnd(byte))
    }
    while position < end {
      while position < end, separates(base[position]) { position += 1 }
      guard position < end else { break }
      let start = position
      var plain = true
      while position < end {
        let byte = base[position]
        // Printable ASCII is 0x21...0x7E; spaces and line ends are below it.
        if byte &- 0x21 > 0x7E - 0x21 {
          if separates(byte) { break }
          plain = false
        }
        position += 1
      }
      if plain {
        addPlain(start: start, length: position - start)
      } else {
        for word in Self.words(bytes, start..<position) { add(word) }
      }
    }
  }

  /// The words the bytes in `range` (one word of the text, not printable ASCII) are once
  /// sanitised: none when nothing is left, several when a no-break space or a line separator
  /// became a space.
  private static func words(_ bytes: TextBytes, _ range: Range<Int>) -> [Word] {
    let raw = bytes.string(range)
    let clean = Sanitizer.sanitize(raw)
    guard !clean.isEmpty else { return [] }
    let exact = clean == raw
    var words: [Word] = []
    var offset = 0
    for part in clean.split(separator: " ") {
      let partStart = range.lowerBound + min(offset, range.count - 1)
      let text = String(part)
      words.append(
        Word(
          text: text, start: partStart, length: range.upperBound - partStart,
          cells: DisplayWidth.cells(text), isExact: exact))
      offset += (exact ? bytes.byteCount(of: part) : part.unicodeScalars.count) + 1
    }
    return words
  }

  private mutating func startRow(at start: Int) {
    rows.append(TextRow(start: rowStart, text: String(decoding: line, as: UTF8.self)))
    line.removeAll(keepingCapacity: true)
    line.append(contentsOf: repeatElement(0x20, count: prefix))
    used = prefix
    hasWord = false
    rowStart = max(start, rowStart + 1)
  }

  /// Adds the printable ASCII word of `length` bytes at `start` (a cell each).
  private mutating func addPlain(start: Int, length: Int) {
    let needed = hasWord ? length + 1 : length
    guard used + needed > width else {
      if hasWord { line.append(0x20) }
      appendBytes(start: start, length: length)
      used += needed
      hasWord = true
      return
    }
    if hasWord { startRow(at: start) }
    guard used + length > width else {
      appendBytes(start: start, length: length)
      used += length
      hasWord = true
      return
    }
    cut(
      String(decoding: bytes.buffer(start..<(start + length)), as: UTF8.self),
      start: start, length: length, isExact: true)
  }

  private mutating func appendBytes(start: Int, length: Int) {
    guard let base = bytes.base else { return }
    line.append(contentsOf: UnsafeBufferPointer(start: base + start, count: length))
  }

  /// Adds `word` after the words before it.
  private mutating func add(_ word: Word) {
    let needed = hasWord ? word.cells + 1 : word.cells
    if used + needed <= width {
      if hasWord { line.append(0x20) }
      line.append(contentsOf: word.text.utf8)
      used += needed
      hasWord = true
      return
    }
    if hasWord { startRow(at: word.start) }
    if used + word.cells <= width {
      line.append(contentsOf: word.text.utf8)
      used += word.cells
      hasWord = true
      return
    }
    cut(word.text, start: word.start, length: word.length, isExact: word.isExact)
  }

  /// A word longer than a row, cut between characters. Offsets inside a word that sanitising
  /// changed are estimated by characters (never past the word's bytes).
  private mutating func cut(_ text: String, start: Int, length: Int, isExact: Bool) {
    var consumed = 0
    for (number, chunk) in DisplayWidth.chunks(text, toCells: max(1, width - used)).enumerated() {
      if number > 0 { startRow(at: start + min(consumed, length - 1)) }
      line.append(contentsOf: chunk.utf8)
      used += DisplayWidth.cells(chunk)
      hasWord = true
      consumed += isExact ? bytes.byteCount(of: chunk) : chunk.unicodeScalars.count
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
