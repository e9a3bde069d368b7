/// A small pull parser over UTF-8 JSON bytes, just enough for Gutendex book objects.
struct JSONReader {
  let bytes: [UInt8]
  var position: Int

  init(_ bytes: [UInt8], position: Int = 0) {
    self.bytes = bytes
    self.position = position
  }

  /// A parse failure at a byte offset.
  struct Failure: Error {
    var offset: Int
    var reason: String
  }

  func fail(_ reason: String) -> Failure {
    Failure(offset: position, reason: reason)
  }

  /// U+FFFD in UTF-8.
  static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  /// The next non-blank byte, not consumed.
  mutating func peek() -> UInt8? {
    skipWhitespace()
    return position < bytes.count ? bytes[position] : nil
  }

  mutating func expect(_ byte: UInt8) throws(Failure) {
    guard peek() == byte else {
      throw fail("expected '\(Character(Unicode.Scalar(byte)))'")
    }
    position += 1
  }

  /// Consumes `literal` (`null`, `true`, `false`) if it comes next.
  mutating func consume(_ literal: StaticString) -> Bool {
    _ = peek()
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    let matches = literal.withUTF8Buffer { buffer in
      for offset in 0..<count where bytes[position + offset] != buffer[offset] { return false }
      return true
    }
    if matches { position += count }
    return matches
  }

  mutating func readNull() -> Bool { consume("null") }

  mutating func readString() throws(Failure) -> String {
    try expect(0x22)
    let start = position
    var plain = true
    while position < bytes.count {
      let byte = bytes[position]
      if byte == 0x22 {
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        position += 1
        return text
      }
      if byte == 0x5C {
        plain = false
        break
      }
      position += 1
    }
    guard !plain else { throw fail("unterminated string") }
    var out = Array(bytes[start..<position])
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      if byte == 0x22 { return String(decoding: out, as: UTF8.self) }
      guard byte == 0x5C else {
        out.append(byte)
        continue
      }
      guard position < bytes.count else { break }
      let escape = bytes[position]
      position += 1
      switch escape {
      case 0x22, 0x5C, 0x2F: out.append(escape)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try readHex4()
        if (0xD800..<0xDC00).contains(scalar), position + 1 < bytes.count,
          bytes[position] == 0x5C, bytes[position + 1] == UInt8(ascii: "u")
        {
          position += 2
          let low = try readHex4()
          if (0xDC00..<0xE000).contains(low) {
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else {
            out.append(contentsOf: Self.replacement)
            scalar = low
          }
        }
        if let value = Unicode.Scalar(scalar) {
          out.append(contentsOf: Array(String(value).utf8))
        } else {
          // A lone surrogate, which Python would keep and UTF-8 cannot hold.
          out.append(contentsOf: Self.replacement)
        }
      default: throw fail("bad escape")
      }
    }
    throw fail("unterminated string")
  }

  private mutating func readHex4() throws(Failure) -> UInt32 {
    guard position + 4 <= bytes.count else { throw fail("short \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      position += 1
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw fail("bad hex digit")
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  mutating func readInt() throws(Failure) -> Int {
    _ = peek()
    var negative = false
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
      negative = true
      position += 1
    }
    let start = position
    var value = 0
    while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[position] - 0x30))
      guard !overflow1, !overflow2 else { throw fail("integer too large") }
      value = sum
      position += 1
    }
    guard position > start else { throw fail("expected an integer") }
    if position < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")]
        .contains(bytes[position])
    {
      throw fail("expected an integer, got a decimal")
    }
    return negative ? -value : value
  }

  mutating func readOptionalInt() throws(Failure) -> Int? {
    if readNull() { return nil }
    return try readInt()
  }

  mutating func readBool() throws(Failure) -> Bool {
    if consume("true") { return true }
    if consume("false") { return false }
    throw fail("expected true or false")
  }

  /// Reads `[ ... ]`, calling `element` for each item.
  mutating func readArray(_ element: (inout JSONReader) throws(Failure) -> Void) throws(Failure) {
    try expect(0x5B)
    if peek() == 0x5D {
      position += 1
      return
    }
    while true {
      try element(&self)
      guard let next = peek() else { throw fail("unterminated array") }
      position += 1
      if next == 0x5D { return }
      guard next == 0x2C else { throw fail("expected ',' or ']'") }
    }
  }

  /// Reads `{ ... }`, calling `member` with each key; `member` must read the value.
  mutating func readObject(_ member: (String, inout JSONReader) throws(Failure) -> Void)
    throws(Failure)
  {
    try expect(0x7B)
    if peek() == 0x7D {
      position += 1
      return
    }
    while true {
      let key = try readString()
      try expect(0x3A)
      try member(key, &self)
      guard let next = peek() else { throw fail("unterminated object") }
      position += 1
      if next == 0x7D { return }
      guard next == 0x2C else { throw fail("expected ',' or '}'") }
    }
  }

  /// Skips any one value.
  mutating func skipValue() throws(Failure) {
    switch peek() {
    case 0x22: _ = try readString()
    case 0x5B: try readArray { reader throws(Failure) in try reader.skipValue() }
    case 0x7B: try readObject { _, reader throws(Failure) in try reader.skipValue() }
    case 0x74, 0x66: _ = try readBool()
    case 0x6E:
      guard readNull() else { throw fail("bad literal") }
    case .some:
      let start = position
      while position < bytes.count,
        "+-0123456789.eE".utf8.contains(bytes[position])
      {
        position += 1
      }
      guard position > start else { throw fail("unexpected byte") }
    case nil: throw fail("unexpected end")
    }
  }
}
