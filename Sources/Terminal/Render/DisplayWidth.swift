/// How many terminal cells text takes, counted per extended grapheme cluster (what a person sees
/// as one character): wide East Asian characters and emoji take 2, combining marks and invisible
/// format characters 0, controls 0, everything else 1.
package enum DisplayWidth {
  /// The number of terminal cells `text` occupies.
  package static func cells(_ text: String) -> Int {
    var asciiCells = 0
    var isASCII = true
    for byte in text.utf8 {
      if byte >= 0x80 {
        isASCII = false
        break
      }
      if byte >= 0x20 && byte < 0x7F { asciiCells += 1 }
    }
    if isASCII { return asciiCells }
    var total = 0
    for character in text { total += cells(character) }
    return total
  }

  /// The number of terminal cells one grapheme cluster occupies (0, 1 or 2).
  package static func cells(_ character: Character) -> Int {
    if let ascii = character.asciiValue {
      return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
    }
    // The widest scalar decides: a base letter with combining marks is 1, a Hangul syllable
    // spelled with jamo or an emoji ZWJ sequence is 2.
    var width = 0
    var hasEmojiSelector = false
    var hasEmoji = false
    for scalar in character.unicodeScalars {
      width = max(width, cells(scalar))
      if scalar.value == 0xFE0F { hasEmojiSelector = true }
      if scalar.properties.isEmoji { hasEmoji = true }
    }
    // U+FE0F asks for emoji presentation (❤️, keycaps), which terminals draw 2 cells wide.
    if width == 1 && hasEmojiSelector && hasEmoji { return 2 }
    return width
  }

  /// The number of cells one scalar takes on its own.
  static func cells(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value >= 0x20 ? 1 : 0 }
    if value < 0xA0 { return 0 }  // DEL and C1 controls
    if value < 0x300 { return 1 }  // Latin-1 and Latin Extended: nothing wide or zero-width
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator,
      .paragraphSeparator, .surrogate:
      return 0
    default:
      break
    }
    // Medial vowels and final consonants of old Hangul join the syllable before them.
    if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
    if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
    return 1
  }

  /// True for East Asian Wide and Fullwidth code points outside the emoji blocks (which
  /// ``cells(_:)-(Unicode.Scalar)`` finds through `isEmojiPresentation`).
  static func isWide(_ value: UInt32) -> Bool {
    if value < wideRanges[0].lowerBound { return false }
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }

  /// East Asian Wide (W) and Fullwidth (F) blocks from Unicode's EastAsianWidth.txt, merged
  /// into block-sized ranges; sorted for binary search. Swift has no East Asian Width property.
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F,  // Hangul Jamo initial consonants
    0x2329...0x232A,  // angle brackets
    0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols (not U+303F)
    0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, Kanbun, CJK
    0x3400...0x4DBF,  // CJK Extension A
    0x4E00...0x9FFF,  // CJK Unified Ideographs
    0xA000...0xA4CF,  // Yi
    0xA960...0xA97F,  // Hangul Jamo Extended-A
    0xAC00...0xD7A3,  // Hangul syllables
    0xF900...0xFAFF,  // CJK Compatibility Ideographs
    0xFE10...0xFE19,  // vertical forms
    0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
    0xFF00...0xFF60,  // fullwidth forms
    0xFFE0...0xFFE6,  // fullwidth signs
    0x16FE0...0x16FE4,  // ideographic symbols
    0x16FF0...0x16FF1,
    0x17000...0x18CFF,  // Tangut, Khitan
    0x18D00...0x18D08,
    0x1AFF0...0x1B2FF,  // Kana supplements and extensions, Nushu
    0x1F200...0x1F202,  // enclosed ideographic supplement
    0x1F210...0x1F23B,
    0x1F240...0x1F248,
    0x1F250...0x1F251,
    0x1F260...0x1F265,
    0x20000...0x2FFFD,  // CJK Extensions B–F, compatibility supplement
    0x30000...0x3FFFD,  // CJK Extensions G–H
  ]
}
