import Foundation

/// How long a downloaded text is, for the details screen: the words of the book itself
/// (without Project Gutenberg's header and licence, found as the reader finds them) and the
/// time they take at a reading speed.
package struct ReadingLength: Sendable, Hashable {
  /// The words of the book's body: runs of bytes between blanks and line ends.
  package var words: Int

  /// A length of `words` words.
  package init(words: Int) {
    self.words = words
  }

  /// The length of the text at `path`; nil when it cannot be read or is not text.
  package static func of(file path: String) -> ReadingLength? {
    guard let text = try? BookText(contentsOfFile: path), text.notText == nil else { return nil }
    return ReadingLength(words: count(text.bytes, in: text.bodyBytes))
  }

  /// The words in `range` of `bytes`, in one pass over them.
  static func count(_ bytes: TextBytes, in range: Range<Int>) -> Int {
    var words = 0
    var inWord = false
    for position in range {
      let byte = bytes[position]
      let blank = byte == 0x20 || byte == 0x09 || LineIndex.isLineEnd(byte)
      if !blank, !inWord { words += 1 }
      inWord = !blank
    }
    return words
  }

  /// `77,432 words · 5 h 10 min at 250 words a minute`.
  package func text(wordsPerMinute: Int) -> String {
    let speed = max(1, wordsPerMinute)
    let minutes = (words + speed - 1) / speed
    return "\(TextFormat.grouped(words)) \(words == 1 ? "word" : "words") · "
      + "\(Self.duration(minutes: minutes)) at \(speed) words a minute"
  }

  /// `45 min`, `1 h 5 min`.
  package static func duration(minutes: Int) -> String {
    minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
  }
}
