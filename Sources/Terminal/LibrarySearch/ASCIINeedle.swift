#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The folded words of a search as they stand in a stretch of text with no byte past ASCII,
/// found without folding it: there a letter folds to its lower case and nothing else, and a
/// run of spaces and tabs to one space, so the words are there exactly where the raw bytes are
/// the folded words up to ASCII case, each space of theirs one or more spaces or tabs.
///
/// Candidates come from `memchr` (vectorised) for one byte of the first word, in either case,
/// the one least frequent in English prose; each is then checked byte by byte.
struct ASCIINeedle {
  /// The folded words (all ASCII, no space first or last, no two in a row).
  private let bytes: [UInt8]
  /// Where the byte looked for is in the words (in the first word, so at a fixed distance from
  /// a match's start).
  let anchor: Int
  private let lower: UInt8
  private let upper: UInt8

  /// ASCII folded as ``TextFolding`` folds it: A–Z to a–z, a tab to a space.
  private static let folded: [UInt8] = (0..<256).map { byte in
    if (0x41...0x5A).contains(byte) { return UInt8(byte + 0x20) }
    return byte == 0x09 ? 0x20 : UInt8(byte)
  }

  /// Letters from the most to the least frequent in English text (a digit is rarer than any,
  /// punctuation about as frequent as the common letters).
  private static let frequency = Array("etaoinshrdlcumwfgypbvkjxqz".utf8)

  /// The needle for `folded` words, nil when they hold a byte past ASCII (then no stretch of
  /// ASCII can hold them) or nothing.
  init?(_ folded: [UInt8]) {
    guard let first = folded.first, first != 0x20, folded.allSatisfy({ $0 < 0x80 }) else {
      return nil
    }
    bytes = folded
    let firstWord = folded.prefix { $0 != 0x20 }
    func rank(_ byte: UInt8) -> Int {
      if let index = Self.frequency.firstIndex(of: byte) { return 100 - index }
      return (0x30...0x39).contains(byte) ? 60 : 90
    }
    var best = 0
    for (index, byte) in firstWord.enumerated() where rank(byte) < rank(firstWord[best]) {
      best = index
    }
    anchor = best
    lower = firstWord[best]
    upper = (0x61...0x7A).contains(lower) ? lower - 0x20 : lower
  }

  /// The first match starting at or after `from` whose anchor byte lies before `candidates`
  /// (matches may run on to `end`), in the text at `base`, which holds no byte past ASCII up
  /// to `end`.
  func first(in base: UnsafePointer<UInt8>, from: Int, candidates: Int, end: Int) -> Range<Int>? {
    var search = from + anchor
    var nextLower = -1
    var nextUpper = upper == lower ? Int.max : -1
    while search < candidates {
      if nextLower < search { nextLower = Self.find(lower, base, search, candidates) }
      if nextUpper < search { nextUpper = Self.find(upper, base, search, candidates) }
      let candidate = min(nextLower, nextUpper)
      guard candidate < candidates else { return nil }
      let start = candidate - anchor
      if let matchEnd = matchEnd(base, at: start, end: end) { return start..<matchEnd }
      search = candidate + 1
    }
    return nil
  }

  /// Where `byte` first is in `base[from..<to]`; `to` when it is not there.
  private static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int)
    -> Int
  {
    guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
  }

  /// The end of the words when they start at `start` (before `end`), nil when they do not.
  private func matchEnd(_ base: UnsafePointer<UInt8>, at start: Int, end: Int) -> Int? {
    var position = start
    for byte in bytes {
      guard position < end else { return nil }
      if byte == 0x20 {
        // One space of the words: one or more spaces or tabs in the text.
        guard Self.folded[Int(base[position])] == 0x20 else { return nil }
        repeat { position += 1 } while position < end && Self.folded[Int(base[position])] == 0x20
      } else {
        guard Self.folded[Int(base[position])] == byte else { return nil }
        position += 1
      }
    }
    return position
  }
}
