/// Wrapping a piece into display rows that know where they start in the text.
extension BookText {
  /// A word of a piece: its text (sanitised; nil for printable ASCII, which is its bytes as
  /// they are), where it starts, how many bytes of the text it came from, and its width.
  private struct Word {
    let text: String?
    let start: Int
    let length: Int
    let cells: Int
    /// True when the text is exactly the bytes (so its characters map to byte offsets).
    let isExact: Bool
  }

  /// The rows of `piece` at `width` cells: words wrapped by display width, the line's
  /// indentation kept when it is under half the width, a word longer than a row cut between
  /// characters. Every piece has at least one row (a blank line is one empty row).
  ///
  /// A row is put together as bytes and made a string once (most words are printable ASCII,
  /// copied from the text as they are): a 5 MB book is about a million words.
  func rows(of piece: TextPiece, width: Int) -> [TextRow] {
    if piece.layout == .asWritten { return WrittenLine(bytes, piece.range).rows(width: width) }
    let indent = indent(at: piece.lineStart)
    let firstPrefix = indent < width / 2 ? indent : 0
    // A paragraph's later rows start at the margin; a long line's keep its indentation.
    let prefix = piece.layout == .paragraph ? 0 : firstPrefix
    var rows: [TextRow] = []
    var line = [UInt8](repeating: 0x20, count: firstPrefix)
    line.reserveCapacity(width * 2)
    var used = firstPrefix
    var hasWord = false
    var rowStart = piece.range.lowerBound
    func startRow(at start: Int) {
      rows.append(TextRow(start: rowStart, text: String(decoding: line, as: UTF8.self)))
      line.removeAll(keepingCapacity: true)
      line.append(contentsOf: repeatElement(0x20, count: prefix))
      used = prefix
      hasWord = false
      rowStart = max(start, rowStart + 1)
    }
    func append(_ word: Word) {
      if let text = word.text {
        line.append(contentsOf: text.utf8)
      } else {
        line.append(contentsOf: bytes.buffer(word.start..<(word.start + word.length)))
      }
    }
    forEachWord(in: piece.range, acrossLines: piece.layout == .paragraph) { word in
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
      for (number, chunk) in DisplayWidth.chunks(text, toCells: max(1, width - used))
        .enumerated()
      {
        if number > 0 { startRow(at: word.start + min(consumed, word.length - 1)) }
        line.append(contentsOf: chunk.utf8)
        used += DisplayWidth.cells(chunk)
        hasWord = true
        consumed += word.isExact ? bytes.byteCount(of: chunk) : chunk.unicodeScalars.count
      }
    }
    if hasWord || rows.isEmpty {
      rows.append(
        TextRow(start: rowStart, text: hasWord ? String(decoding: line, as: UTF8.self) : ""))
    }
    return rows
  }

  /// Calls `body` with each word of `range`, sanitised: escapes and control characters go,
  /// and a word they leave empty is skipped.
  private func forEachWord(
    in range: Range<Int>, acrossLines: Bool = false, _ body: (Word) -> Void
  ) {
    var position = range.lowerBound
    let end = range.upperBound
    @inline(__always) func separates(_ byte: UInt8) -> Bool {
      Self.isSpace(byte) || (acrossLines && LineIndex.isLineEnd(byte))
    }
    while position < end {
      while position < end, separates(bytes[position]) { position += 1 }
      guard position < end else { break }
      let start = position
      var plain = true
      while position < end, !separates(bytes[position]) {
        let byte = bytes[position]
        if byte < 0x21 || byte > 0x7E { plain = false }
        position += 1
      }
      if plain {
        body(
          Word(
            text: nil, start: start, length: position - start, cells: position - start,
            isExact: true))
        continue
      }
      let raw = bytes.string(start..<position)
      let clean = Sanitizer.sanitize(raw)
      guard !clean.isEmpty else { continue }
      // Sanitising can turn a no-break space or a line separator into a space: more words.
      let exact = clean == raw
      var offset = 0
      for part in clean.split(separator: " ") {
        let partStart = start + min(offset, position - start - 1)
        body(
          Word(
            text: String(part), start: partStart, length: position - partStart,
            cells: DisplayWidth.cells(String(part)), isExact: exact))
        offset += (exact ? bytes.byteCount(of: part) : part.unicodeScalars.count) + 1
      }
    }
  }
}
