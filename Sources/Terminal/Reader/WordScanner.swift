/// The words of a stretch of a text's bytes, sanitised, one at a time: escapes and control
/// characters go, and a word they leave empty is skipped.
///
/// A word of printable ASCII (nearly every word of a Project Gutenberg text) is only its
/// bytes: no string is made and no character looked at; only a word with other bytes is
/// decoded, sanitised and measured by grapheme. A value type stepped by `next()` rather than a
/// loop calling a closure: the closure's captured state was checked for exclusive access at
/// run time on every word, a quarter of the time a book took to reflow.
struct WordScanner {
  /// A word: its text (sanitised; nil for printable ASCII, which is its bytes as they are),
  /// where it starts, how many bytes of the text it came from, and its width.
  struct Word {
    let text: String?
    let start: Int
    let length: Int
    let cells: Int
    /// True when the text is exactly the bytes (so its characters map to byte offsets).
    let isExact: Bool
  }

  private let bytes: TextBytes
  private var position: Int
  private let end: Int
  /// True when line ends separate words too (a paragraph's lines joined).
  private let acrossLines: Bool
  /// The parts of a word sanitising turned into several (a no-break space became a space),
  /// still to be returned, in order.
  private var pending: [Word] = []
  private var nextPending = 0

  /// The words of `range` of `bytes`; `acrossLines`: a line end separates words as a space does.
  init(_ bytes: TextBytes, _ range: Range<Int>, acrossLines: Bool) {
    self.bytes = bytes
    position = range.lowerBound
    end = range.upperBound
    self.acrossLines = acrossLines
  }

  @inline(__always) private func separates(_ byte: UInt8) -> Bool {
    BookText.isSpace(byte) || (acrossLines && LineIndex.isLineEnd(byte))
  }

  /// The next word, or nil after the last.
  mutating func next() -> Word? {
    if nextPending < pending.count {
      nextPending += 1
      return pending[nextPending - 1]
    }
    guard let base = bytes.base else { return nil }
    while true {
      while position < end, separates(base[position]) { position += 1 }
      guard position < end else { return nil }
      let start = position
      var plain = true
      while position < end {
        let byte = base[position]
        // Printable ASCII is 0x21...0x7E; a space or a line end is below it.
        if byte &- 0x21 > 0x7E - 0x21 {
          if separates(byte) { break }
          plain = false
        }
        position += 1
      }
      if plain {
        let length = position - start
        return Word(text: nil, start: start, length: length, cells: length, isExact: true)
      }
      let raw = bytes.string(start..<position)
      let clean = Sanitizer.sanitize(raw)
      guard !clean.isEmpty else { continue }
      // Sanitising can turn a no-break space or a line separator into a space: more words.
      let exact = clean == raw
      var offset = 0
      pending.removeAll(keepingCapacity: true)
      nextPending = 0
      for part in clean.split(separator: " ") {
        let partStart = start + min(offset, position - start - 1)
        let text = String(part)
        pending.append(
          Word(
            text: text, start: partStart, length: position - partStart,
            cells: DisplayWidth.cells(text), isExact: exact))
        offset += (exact ? bytes.byteCount(of: part) : part.unicodeScalars.count) + 1
      }
      if let first = pending.first {
        nextPending = 1
        return first
      }
    }
  }
}
