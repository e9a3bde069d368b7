extension JSONParser {
  /// U+FFFD in UTF-8, for what ``Options/replacesInvalidUnicode`` replaces.
  static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

  /// Reads a string, unescaped: valid UTF-8 only, no raw control characters, every escape
  /// RFC 8259's, surrogate escapes in pairs (unless the options replace invalid Unicode).
  package mutating func readString() throws(JSONParseError) -> String {
    skipWhitespace()
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
      throw failure("a string")
    }
    let start = position + 1
    var index = start
    var ascii = true
    // Most strings have no escape, and plain ASCII needs no UTF-8 validation: make those
    // straight from the input.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text =
          ascii ? String(decoding: bytes[start..<index], as: UTF8.self) : try text(start..<index)
        position = index + 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw controlCharacter(at: index) }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    guard index < bytes.count else { throw unterminated() }
    return try readEscapedString(from: start, firstEscape: index)
  }

  /// The rest of a string that has an escape at `firstEscape`, through a buffer.
  private mutating func readEscapedString(from start: Int, firstEscape: Int) throws(JSONParseError)
    -> String
  {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(firstEscape - start + 16)
    var runStart = start
    var index = firstEscape
    var ascii = true
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        // Check each raw run on its own: an escape cannot split a UTF-8 sequence (a backslash
        // ends one), so valid runs and escapes make a valid string.
        if !ascii, !options.replacesInvalidUnicode,
          let bad = Self.invalidUTF8(bytes, runStart..<index)
        {
          throw JSONParseError(offset: bad, reason: "invalid UTF-8 in a string")
        }
        buffer.append(contentsOf: bytes[runStart..<index])
        if byte == UInt8(ascii: "\"") {
          position = index + 1
          return String(decoding: buffer, as: UTF8.self)
        }
        index = try readEscape(at: index, into: &buffer)
        runStart = index
        ascii = true
      default:
        if byte < 0x20 { throw controlCharacter(at: index) }
        if byte >= 0x80 { ascii = false }
        index += 1
      }
    }
    throw unterminated()
  }

  /// Appends what the escape at `index` (a backslash) stands for; returns the index after it.
  private func readEscape(at index: Int, into buffer: inout [UInt8]) throws(JSONParseError) -> Int {
    guard index + 1 < bytes.count else { throw unterminated() }
    let escape = bytes[index + 1]
    switch escape {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"): return try readUnicodeEscape(at: index, into: &buffer)
    default:
      throw JSONParseError(
        offset: index, reason: "invalid escape \\\(describe(index + 1).trimmingQuotes)")
    }
    return index + 2
  }

  /// Appends the scalar of `\uXXXX` at `index`, joining a surrogate pair; returns the index
  /// after it. A lone surrogate throws, or becomes U+FFFD when the options replace it.
  private func readUnicodeEscape(at index: Int, into buffer: inout [UInt8]) throws(JSONParseError)
    -> Int
  {
    var scalar = try hex4(at: index + 2)
    var next = index + 6
    if (0xD800..<0xDC00).contains(scalar), next + 1 < bytes.count,
      bytes[next] == UInt8(ascii: "\\"), bytes[next + 1] == UInt8(ascii: "u")
    {
      let low = try hex4(at: next + 2)
      if (0xDC00..<0xE000).contains(low) {
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        next += 6
      } else if options.replacesInvalidUnicode {
        // As the engine always did: the lone high surrogate, then the second escape alone.
        buffer.append(contentsOf: Self.replacementCharacter)
        scalar = low
        next += 6
      }
    }
    guard let value = Unicode.Scalar(scalar) else {
      guard options.replacesInvalidUnicode else {
        throw JSONParseError(offset: index, reason: "unpaired UTF-16 surrogate in \\u escape")
      }
      buffer.append(contentsOf: Self.replacementCharacter)
      return next
    }
    Self.appendUTF8(value.value, to: &buffer)
    return next
  }

  private func hex4(at index: Int) throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for offset in index..<(index + 4) {
      guard offset < bytes.count, let digit = Self.hexValue(bytes[offset]) else {
        throw JSONParseError(
          offset: offset, reason: "expected four hex digits after \\u, found \(describe(offset))")
      }
      value = value << 4 | digit
    }
    return value
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// The string of the raw bytes `range` (no escapes, some non-ASCII).
  private func text(_ range: Range<Int>) throws(JSONParseError) -> String {
    if let text = String(validating: bytes[range], as: UTF8.self) { return text }
    guard options.replacesInvalidUnicode else {
      let bad = Self.invalidUTF8(bytes, range) ?? range.lowerBound
      throw JSONParseError(offset: bad, reason: "invalid UTF-8 in a string")
    }
    return String(decoding: bytes[range], as: UTF8.self)
  }

  private func controlCharacter(at index: Int) -> JSONParseError {
    JSONParseError(offset: index, reason: "control character in a string (must be escaped)")
  }

  private func unterminated() -> JSONParseError {
    JSONParseError(offset: bytes.count, reason: "unterminated string (truncated?)")
  }

  /// The offset of the first byte of `range` that does not start a well-formed UTF-8 sequence
  /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF); nil if all are.
  static func invalidUTF8(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
    var index = range.lowerBound
    while index < range.upperBound {
      let first = bytes[index]
      if first < 0x80 {
        index += 1
        continue
      }
      let length: Int
      // The allowed range of the second byte, which is where overlong forms, surrogates and
      // values above U+10FFFF show.
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch first {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, lower) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, upper) = (3, 0x9F)
      case 0xF0: (length, lower) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, upper) = (4, 0x8F)
      default: return index
      }
      guard index + length <= range.upperBound, (lower...upper).contains(bytes[index + 1]) else {
        return index
      }
      for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return index }
      index += length
    }
    return nil
  }

  /// Appends the UTF-8 form of a Unicode scalar value.
  static func appendUTF8(_ value: UInt32, to buffer: inout [UInt8]) {
    switch value {
    case ..<0x80:
      buffer.append(UInt8(value))
    case ..<0x800:
      buffer.append(UInt8(0xC0 | value >> 6))
      buffer.append(UInt8(0x80 | value & 0x3F))
    case ..<0x10000:
      buffer.append(UInt8(0xE0 | value >> 12))
      buffer.append(UInt8(0x80 | value >> 6 & 0x3F))
      buffer.append(UInt8(0x80 | value & 0x3F))
    default:
      buffer.append(UInt8(0xF0 | value >> 18))
      buffer.append(UInt8(0x80 | value >> 12 & 0x3F))
      buffer.append(UInt8(0x80 | value >> 6 & 0x3F))
      buffer.append(UInt8(0x80 | value & 0x3F))
    }
  }
}

extension String {
  /// `'x'` without its quotes, for naming an escape letter.
  fileprivate var trimmingQuotes: String {
    hasPrefix("'") && hasSuffix("'") && count == 3 ? String(dropFirst().dropLast()) : self
  }
}
