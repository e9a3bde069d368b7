import Gutendex

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
/// Candidates are found 16 bytes at a time: where two bytes of the first word, at a fixed
/// distance from each other, both stand, in either case; each is then checked byte by byte.
/// The two are the word's rarest letters in English, not its first and last: "heloise"'s `h`
/// and `e` six bytes apart stand together far more often in prose than its `l` and `s`.
struct ASCIINeedle {
  /// The folded words (all ASCII, no space first or last, no two in a row).
  private let bytes: [UInt8]
  /// Two bytes of the first word, with the 0x20 bit set (a letter's lower case), and where
  /// they stand in it (`near` <= `far`).
  private let first: UInt8
  private let last: UInt8
  private let near: Int
  private let far: Int

  /// ASCII folded as ``TextFolding`` folds it: A–Z to a–z, a tab to a space.
  private static let folded: [UInt8] = (0..<256).map { byte in
    if (0x41...0x5A).contains(byte) { return UInt8(byte + 0x20) }
    return byte == 0x09 ? 0x20 : UInt8(byte)
  }

  /// The needle for `folded` words, nil when they hold a byte past ASCII (then no stretch of
  /// ASCII can hold them) or nothing.
  init?(_ folded: [UInt8]) {
    guard let head = folded.first, head != 0x20, folded.allSatisfy({ $0 < 0x80 }) else {
      return nil
    }
    bytes = folded
    let firstWord = Array(folded.prefix { $0 != 0x20 })
    // The rarest byte, then the rarest other one (the same byte again for a word of one).
    let ranked = firstWord.indices.sorted {
      (LetterFrequency.commonness[Int(firstWord[$0])], $0) < (
        LetterFrequency.commonness[Int(firstWord[$1])], $1
      )
    }
    let pair = [ranked[0], ranked.count > 1 ? ranked[1] : ranked[0]].sorted()
    near = pair[0]
    far = pair[1]
    first = firstWord[near] | 0x20
    last = firstWord[far] | 0x20
  }

  /// The first match that starts in `from..<candidates` (it may run on to `end`), in the text
  /// at `base`, which holds no byte past ASCII up to `end`.
  func first(in base: UnsafePointer<UInt8>, from: Int, candidates: Int, end: Int) -> Range<Int>? {
    let raw = UnsafeRawPointer(base)
    let firsts = SIMD16<UInt8>(repeating: first)
    let lasts = SIMD16<UInt8>(repeating: last)
    let lowerCase = SIMD16<UInt8>(repeating: 0x20)
    var start = from
    // Sixteen candidates at a time while both loads stay inside the text.
    while start + 16 <= candidates, start + far + 16 <= end {
      let heads =
        raw.loadUnaligned(fromByteOffset: start + near, as: SIMD16<UInt8>.self) | lowerCase
      let tails =
        raw.loadUnaligned(fromByteOffset: start + far, as: SIMD16<UInt8>.self) | lowerCase
      // Each lane 0xFF where both bytes are there; read as two words (`any()` is a call).
      let lanes = unsafeBitCast((heads .== firsts) .& (tails .== lasts), to: SIMD2<UInt64>.self)
      if lanes[0] | lanes[1] != 0 {
        for half in 0..<2 {
          var remaining = lanes[half]
          while remaining != 0 {
            let byte = remaining.trailingZeroBitCount / 8
            let candidate = start + half * 8 + byte
            if let found = matchEnd(base, at: candidate, end: end) { return candidate..<found }
            remaining &= ~(UInt64(0xFF) << UInt64(byte * 8))
          }
        }
      }
      start += 16
    }
    while start < candidates {
      if let found = matchEnd(base, at: start, end: end) { return start..<found }
      start += 1
    }
    return nil
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
