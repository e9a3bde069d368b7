/// A strict RFC 8259 parser producing ``StoreJSON``, whose errors carry the byte offset so an
/// import can report the line and column of a syntax error.
struct StoreJSONParser {
  /// A syntax error at a byte offset of the input.
  struct Failure: Error, Sendable {
    var offset: Int
    var reason: String
  }

  /// Deeper nesting than this is refused rather than risking the stack.
  static let maximumDepth = 256

  private let bytes: [UInt8]
  private var index = 0

  private init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Parses a whole document: one value, surrounded only by whitespace.
  static func parse(_ bytes: [UInt8]) throws(Failure) -> StoreJSON {
    var parser = StoreJSONParser(bytes)
    // A UTF-8 byte order mark is not JSON, but editors add it; skipping it is harmless.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipWhitespace()
    guard parser.index < bytes.count else {
      throw Failure(offset: parser.index, reason: "no JSON value (the input is empty)")
    }
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else {
      throw Failure(
        offset: parser.index, reason: "unexpected \(parser.describe()) after the JSON value")
    }
    return value
  }

  /// `line L, column C` (both from 1; columns count characters) for a byte offset of `bytes`.
  static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> String {
    let end = min(offset, bytes.count)
    var line = 1
    var lineStart = 0
    for position in 0..<end where bytes[position] == 0x0A {
      line += 1
      lineStart = position + 1
    }
    // Count characters, not bytes: skip UTF-8 continuation bytes.
    let column = 1 + bytes[lineStart..<end].count { $0 & 0xC0 != 0x80 }
    return "line \(line), column \(column)"
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private func describe() -> String {
    guard index < bytes.count else { return "end of input" }
    let byte = bytes[index]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = Array("0123456789ABCDEF")
    return "byte 0x\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
  }

  private func failure(_ expected: String) -> Failure {
    let found = index < bytes.count ? describe() : "end of input (truncated?)"
    return Failure(offset: index, reason: "expected \(expected), found \(found)")
  }

  private mutating func parseValue(depth: Int) throws(Failure) -> StoreJSON {
    guard depth < Self.maximumDepth else {
      throw Failure(offset: index, reason: "nested more than \(Self.maximumDepth) levels deep")
    }
    guard index < bytes.count else { throw failure("a JSON value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw failure("a JSON value")
    }
  }

  private mutating func parseLiteral(_ word: String, _ value: StoreJSON) throws(Failure)
    -> StoreJSON
  {
    for expected in word.utf8 {
      guard index < bytes.count, bytes[index] == expected else { throw failure("'\(word)'") }
      index += 1
    }
    return value
  }

  private mutating func parseObject(depth: Int) throws(Failure) -> StoreJSON {
    index += 1
    var members: [StoreJSON.Member] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object([])
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw failure("a member name in double quotes")
      }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("':'") }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth + 1)
      members.append(StoreJSON.Member(key: key, value: value))
      skipWhitespace()
      guard index < bytes.count else { throw failure("',' or '}'") }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw failure("',' or '}'")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(Failure) -> StoreJSON {
    index += 1
    var elements: [StoreJSON] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array([])
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      guard index < bytes.count else { throw failure("',' or ']'") }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw failure("',' or ']'")
      }
    }
  }

  private mutating func parseNumber() throws(Failure) -> StoreJSON {
    let start = index
    func digits(_ parser: inout StoreJSONParser) -> Int {
      let first = parser.index
      while parser.index < parser.bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
      {
        parser.index += 1
      }
      return parser.index - first
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits(&self) == 0 {
      throw failure("a digit")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits(&self) > 0 else { throw failure("a digit after '.'") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits(&self) > 0 else { throw failure("a digit in the exponent") }
    }
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private mutating func parseString() throws(Failure) -> String {
    let start = index
    index += 1
    // Most strings have no escape and are ASCII: make them straight from the input.
    var end = index
    var ascii = true
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
      bytes[end] >= 0x20
    {
      if bytes[end] >= 0x80 { ascii = false }
      end += 1
    }
    if ascii, end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
      index = end + 1
      return String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
    }
    var buffer: [UInt8] = []
    var runStart = index
    while true {
      guard index < bytes.count else {
        throw Failure(offset: index, reason: "unterminated string (truncated input?)")
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        buffer.append(contentsOf: bytes[runStart..<index])
        index += 1
        break
      } else if byte == UInt8(ascii: "\\") {
        buffer.append(contentsOf: bytes[runStart..<index])
        try parseEscape(into: &buffer)
        runStart = index
      } else if byte < 0x20 {
        throw Failure(offset: index, reason: "control character in a string (must be escaped)")
      } else {
        index += 1
      }
    }
    guard let text = String(validating: buffer, as: UTF8.self) else {
      throw Failure(offset: start, reason: "string is not valid UTF-8")
    }
    return text
  }

  private mutating func parseEscape(into buffer: inout [UInt8]) throws(Failure) {
    index += 1
    guard index < bytes.count else {
      throw Failure(offset: index, reason: "unterminated string (truncated input?)")
    }
    if let replacement = Self.simpleEscapes[bytes[index]] {
      buffer.append(replacement)
      index += 1
      return
    }
    guard bytes[index] == UInt8(ascii: "u") else {
      throw Failure(offset: index - 1, reason: "invalid escape \\\(describe())")
    }
    index += 1
    var scalar = try hex4()
    if (0xD800..<0xDC00).contains(scalar) {
      // A high surrogate must be followed by an escaped low surrogate.
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      else { throw Failure(offset: index, reason: "unpaired UTF-16 surrogate in \\u escape") }
      index += 2
      let low = try hex4()
      guard (0xDC00..<0xE000).contains(low) else {
        throw Failure(offset: index - 6, reason: "unpaired UTF-16 surrogate in \\u escape")
      }
      scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
    }
    guard let unicode = Unicode.Scalar(scalar) else {
      throw Failure(offset: index - 6, reason: "unpaired UTF-16 surrogate in \\u escape")
    }
    buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else {
        throw failure("four hex digits after \\u")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  /// What each one-letter escape stands for.
  private static let simpleEscapes: [UInt8: UInt8] = [
    UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
    UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
    UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
  ]

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }
}
