/// One line's shape, from one pass over its bytes: what tells a line of prose that Project
/// Gutenberg wrapped at about 70 columns from one to keep as written (verse, a table's row, a
/// centred line, a rule).
struct LineShape: Sendable, Equatable {
  /// Bytes sampled from the body's start to measure the width the text was wrapped at.
  static let wrapSample = 256 * 1024
  /// The narrowest wrap width assumed: a book of short lines (verse) is not prose wrapped at 45.
  static let narrowestWrap = 60

  /// Leading indentation in cells (tabs to 4).
  var indent = 0
  /// Characters up to its last one that is not a space.
  var length = 0
  /// Characters of its first word.
  var firstWord = 0
  /// True when its first letter (after quotes) is a capital.
  var startsUpper = false
  /// True for columns: a run of three spaces inside it, or two not after a sentence's end.
  var tabular = false
  /// True for a line of dashes, asterisks, equals signs, dots or underscores (`* * *`).
  var isRule = false

  /// The shape of the line in `range` of `bytes` (line ends excluded).
  init(_ bytes: TextBytes, _ range: Range<Int>) {
    guard let base = bytes.base else { return }
    var position = range.lowerBound
    while position < range.upperBound {
      let byte = base[position]
      if byte == 0x20 {
        indent += 1
      } else if byte == 0x09 {
        indent += 4 - indent % 4
      } else {
        break
      }
      position += 1
    }
    var characters = 0
    var spaces = 0
    var previous: UInt8 = 0
    var inFirstWord = true
    var ruleBytes = 0
    var otherBytes = 0
    var sawLetter = false
    while position < range.upperBound {
      // Letters after the first one only count (most of a line): one compare a byte.
      if sawLetter, spaces == 0 {
        let run = position
        while position < range.upperBound, (base[position] | 0x20) &- 0x61 < 26 { position += 1 }
        if position > run {
          characters += position - run
          otherBytes += position - run
          if inFirstWord { firstWord += position - run }
          previous = base[position - 1]
          guard position < range.upperBound else { break }
        }
      }
      let byte = base[position]
      position += 1
      if byte == 0x20 || byte == 0x09 {
        spaces += 1
        inFirstWord = false
        continue
      }
      if spaces > 0 {
        if spaces >= 3 || (spaces == 2 && !Self.endsSentence(previous)) { tabular = true }
        characters += spaces
        spaces = 0
      }
      // A UTF-8 continuation byte is part of the character before it.
      if byte & 0xC0 != 0x80 {
        characters += 1
        if inFirstWord { firstWord += 1 }
      }
      switch byte {
      case 0x2D, 0x2A, 0x3D, 0x5F, 0x7E, 0x2E, 0x23: ruleBytes += 1
      default: otherBytes += 1
      }
      if !sawLetter {
        if (0x41...0x5A).contains(byte) {
          startsUpper = true
          sawLetter = true
        } else if (0x61...0x7A).contains(byte) || byte >= 0x80 {
          sawLetter = true
        }
      }
      previous = byte
    }
    length = characters
    isRule = ruleBytes >= 3 && otherBytes == 0
  }

  /// Sentence ends and closing marks (the last byte of `”` and `’` too), after which old texts
  /// put two spaces.
  @inline(__always) private static func endsSentence(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x2E, 0x21, 0x3F, 0x3A, 0x3B, 0x22, 0x27, 0x29, 0x5D, 0x2C, 0x9D, 0x99: true
    default: false
    }
  }

  /// True when `shapes` (a paragraph's lines) are prose wrapped at about `wrap` columns, to be
  /// joined and wrapped to the window; false for lines to keep as written: verse (lines the
  /// next word would have fitted on, or short lines each beginning with a capital), indented
  /// blocks, centred lines, tables and tables of contents (columns), and rules.
  static func isProse(_ shapes: [LineShape], wrap: Int) -> Bool {
    guard let first = shapes.first else { return false }
    if shapes.contains(where: { $0.tabular || $0.isRule }) { return false }
    guard shapes.count > 1 else {
      // One line: prose when it runs to the margin or past it (a paragraph kept on one
      // line), else kept (a heading, a line of verse or dialogue).
      return first.indent <= 8 && first.indent + first.length >= wrap - 2
    }
    if first.indent > 8 || shapes.dropFirst().contains(where: { $0.indent > 0 }) { return false }
    // PG's wrapping ends a line when the next word would not fit: a line that had room for it
    // by a wide margin ended where the author ended it.
    var full = 0
    for number in 0..<(shapes.count - 1)
    where isFull(shapes[number], before: shapes[number + 1], wrap: wrap) {
      full += 1
    }
    guard full * 4 >= (shapes.count - 1) * 3 else { return false }
    // Verse set flush, each line beginning with a capital and none reaching the margin.
    if shapes.count >= 4, shapes.dropFirst().allSatisfy(\.startsUpper),
      shapes.allSatisfy({ $0.length <= wrap - 4 })
    {
      return false
    }
    return true
  }

  /// True when `line` ends where wrapping at `wrap` columns would end it: `next`'s first word
  /// would not have fitted after it (with a margin for wrapping that balances its lines).
  static func isFull(_ line: LineShape, before next: LineShape, wrap: Int) -> Bool {
    line.indent + line.length + 1 + next.firstWord > wrap * 80 / 100
  }

  /// The bytes a word takes in `body`'s first ``wrapSample`` bytes, spaces included (at least
  /// 1): what a stretch of the text is worth in words, for the time it takes to read.
  static func bytesPerWord(of bytes: TextBytes, body: Range<Int>) -> Double {
    let end = min(body.upperBound, body.lowerBound + wrapSample)
    var words = 0
    var inWord = false
    var position = body.lowerBound
    while position < end {
      let byte = bytes[position]
      let space = byte == 0x20 || byte == 0x09 || LineIndex.isLineEnd(byte)
      if !space, !inWord { words += 1 }
      inWord = !space
      position += 1
    }
    return words == 0 ? 6 : max(1, Double(end - body.lowerBound) / Double(words))
  }

  /// The width the prose of `body` was wrapped at: the length 95% of the sampled lines (the
  /// first ``wrapSample`` bytes) stay within, at least ``narrowestWrap``.
  static func wrapColumns(of bytes: TextBytes, body: Range<Int>) -> Int {
    var counts = [Int](repeating: 0, count: 201)
    var total = 0
    var position = body.lowerBound
    let end = min(body.upperBound, body.lowerBound + wrapSample)
    var characters = 0
    var lastVisible = 0
    while position < end {
      let byte = bytes[position]
      position += 1
      if LineIndex.isLineEnd(byte) {
        if lastVisible > 0, lastVisible <= 200 {
          counts[lastVisible] += 1
          total += 1
        }
        characters = 0
        lastVisible = 0
        continue
      }
      if byte & 0xC0 != 0x80 { characters += 1 }
      if byte != 0x20, byte != 0x09 { lastVisible = characters }
    }
    guard total > 0 else { return narrowestWrap }
    var seen = 0
    for length in 1...200 {
      seen += counts[length]
      if seen * 100 >= total * 95 { return max(narrowestWrap, length) }
    }
    return max(narrowestWrap, 200)
  }
}
