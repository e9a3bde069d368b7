import Foundation

/// Makes text from the server or an imported file safe to print on a terminal: no escape
/// sequences, no control characters, no invisible reordering, whitespace collapsed to single
/// spaces and trimmed.
///
/// Every renderer passes server text through ``sanitize(_:)`` itself, so nothing unsanitised can
/// reach the screen by mistake.
package enum Sanitizer {
  /// Returns `text` with escape sequences, control and invisible formatting characters removed,
  /// tabs and line breaks turned into spaces, runs of whitespace collapsed, and the ends trimmed.
  package static func sanitize(_ text: String) -> String {
    if isAlreadyClean(text) { return text }
    let scalars = Array(text.unicodeScalars)
    var out = String.UnicodeScalarView()
    var pendingSpace = false
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      switch scalar.value {
      case 0x1B:
        index = endOfEscape(scalars, escapeAt: index)
        continue
      case 0x9B:
        // An 8-bit CSI is removed with its parameters only when they form a complete sequence,
        // so a stray U+009B (mis-decoded Windows-1252) does not eat the text after it.
        index = endOfControlSequence(scalars, from: index + 1) ?? index + 1
        continue
      case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
        // DCS, SOS, OSC, PM, APC: their payload goes too when a terminator follows; a lone
        // introducer (mis-decoded `ž` or `Ÿ` in real titles) is dropped by itself.
        index = endOfControlString(scalars, from: index + 1) ?? index + 1
        continue
      default:
        break
      }
      if isSpace(scalar) {
        pendingSpace = true
      } else if !isRemoved(scalar) {
        if pendingSpace && !out.isEmpty { out.append(" ") }
        pendingSpace = false
        out.append(scalar)
      }
      index += 1
    }
    return String(out)
  }

  /// True when `text` is printable ASCII with single inner spaces, so it needs no work.
  private static func isAlreadyClean(_ text: String) -> Bool {
    var previousWasSpace = true  // a leading space is not clean
    for byte in text.utf8 {
      guard byte >= 0x20, byte < 0x7F else { return false }
      if byte == 0x20 {
        if previousWasSpace { return false }
        previousWasSpace = true
      } else {
        previousWasSpace = false
      }
    }
    return !previousWasSpace || text.isEmpty
  }

  /// A line end, tab or any Unicode white space: each run becomes one space. ASCII is
  /// answered without Unicode's property tables (a lookup per character was most of the
  /// cost of sanitizing a line of `library search`), with the same answers: of ASCII, only
  /// tab to carriage return and the space are White_Space.
  @inline(__always) private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
    return isLineOrTab(scalar) || scalar.properties.isWhitespace
  }

  /// Tab, line feed, vertical tab, form feed, carriage return, NEL, line and paragraph
  /// separators: all become a space rather than vanish, so the words on each side stay apart.
  private static func isLineOrTab(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  /// Characters dropped outright.
  ///
  /// - C0 and C1 controls and DEL: a terminal acts on them.
  /// - Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder
  ///   the rest of the line, columns included (the "Trojan Source" trick).
  /// - The bidi marks U+200E, U+200F and U+061C too: they only matter next to text whose
  ///   direction they fix, but in a line of columns a bidi-aware terminal lets them pull
  ///   neighbouring fields around, and in the real catalogue they are cataloguing leftovers
  ///   (`Capsius, M.\u{200F}`), never needed to read a name.
  /// - Zero-width space U+200B, word joiner U+2060, invisible operators U+2061–U+2064, BOM
  ///   U+FEFF and interlinear annotation marks U+FFF9–U+FFFB: invisible, so they only make two
  ///   equal-looking strings differ. Removed everywhere for the same reason.
  /// - Soft hyphen U+00AD: terminals draw it inconsistently (nothing, or a hyphen).
  ///
  /// Zero-width joiner and non-joiner (U+200D, U+200C) stay: emoji sequences and Persian or
  /// Indic spelling need them.
  private static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0xAD, 0x061C, 0x200B, 0x200E, 0x200F, 0x202A...0x202E: true
    case 0x2060...0x2064, 0x2066...0x2069, 0xFEFF, 0xFFF9...0xFFFB: true
    default: false
    }
  }

  /// The index just past the escape sequence starting with the ESC at `start`.
  private static func endOfEscape(_ scalars: [Unicode.Scalar], escapeAt start: Int) -> Int {
    let next = start + 1
    guard next < scalars.count else { return next }
    switch scalars[next].value {
    case 0x5B:  // ESC [ : CSI
      return endOfControlSequence(scalars, from: next + 1) ?? next + 1
    case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // ESC ] OSC, ESC P DCS, ESC X SOS, ESC ^ PM, ESC _ APC
      // Unterminated, a terminal would swallow the rest of the text; so do we.
      return endOfControlString(scalars, from: next + 1) ?? scalars.count
    case 0x20...0x2F:  // intermediates then a final byte, e.g. ESC ( B
      var index = next
      while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
      if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
      return index
    case 0x30...0x7E:  // a two-character sequence such as ESC c or ESC 7
      return next + 1
    default:  // not an escape sequence: drop the ESC alone
      return next
    }
  }

  /// The index past a CSI's parameters, intermediates and final byte starting at `start`, or
  /// nil when they do not form a complete sequence.
  private static func endOfControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
    var index = start
    while index < scalars.count, (0x30...0x3F).contains(scalars[index].value) { index += 1 }
    while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
    guard index < scalars.count, (0x40...0x7E).contains(scalars[index].value) else { return nil }
    return index + 1
  }

  /// The index past the terminator (BEL, ST U+009C, or ESC \) of a control string whose payload
  /// starts at `start`, or nil when none follows.
  private static func endOfControlString(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
    var index = start
    while index < scalars.count {
      switch scalars[index].value {
      case 0x07, 0x9C:
        return index + 1
      case 0x1B:
        // ESC \ is the terminator; any other ESC aborts the string and starts a new sequence.
        let next = index + 1
        return next < scalars.count && scalars[next] == "\\" ? next + 1 : index
      default:
        index += 1
      }
    }
    return nil
  }
}
