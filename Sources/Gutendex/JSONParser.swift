/// The package's one JSON reader: a pull parser over UTF-8 bytes (RFC 8259).
///
/// The caller walks the document with `read…` calls (a book decoder reads exactly the keys it
/// knows, the store builds a tree that keeps member order and number text). Every method throws
/// a ``JSONParseError`` with the byte offset and reason; a caller that wants a fast path maps a
/// throw to "use the slow path". Options relax or bound what is accepted (see ``Options``);
/// ``skipValueUnchecked()`` is the structural fast mode that only finds where a value ends.
package struct JSONParser {
  /// What a caller relaxes or bounds; the defaults (``strict``) accept exactly RFC 8259.
  package struct Options: Sendable {
    /// More arrays and objects nested than this throws instead of risking the stack.
    package var maximumDepth: Int
    /// Lone UTF-16 surrogate escapes and invalid UTF-8 in strings become U+FFFD instead of
    /// throwing: Python's `json`, which wrote the catalogue, keeps lone surrogates.
    package var replacesInvalidUnicode: Bool
    /// Skips a UTF-8 byte order mark at the start: not JSON, but editors add one.
    package var skipsByteOrderMark: Bool

    /// Options; the defaults are ``strict``.
    package init(
      maximumDepth: Int = 256, replacesInvalidUnicode: Bool = false,
      skipsByteOrderMark: Bool = false
    ) {
      self.maximumDepth = maximumDepth
      self.replacesInvalidUnicode = replacesInvalidUnicode
      self.skipsByteOrderMark = skipsByteOrderMark
    }

    /// RFC 8259 exactly, nesting up to 256 deep.
    package static let strict = Options()
  }

  /// The input.
  package let bytes: [UInt8]
  /// The offset of the next byte to read.
  package var position: Int
  /// What this parser accepts.
  package let options: Options
  /// How many arrays and objects enclose ``position``.
  private var depth = 0

  /// A parser at the start of `bytes` (after a byte order mark if the options skip it).
  package init(_ bytes: [UInt8], options: Options = .strict) {
    self.bytes = bytes
    self.options = options
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    position = options.skipsByteOrderMark && bytes.starts(with: bom) ? 3 : 0
  }

  /// A parser over the same bytes at `offset`, outside any container: to read a value whose
  /// raw range an earlier pass found.
  package func parser(at offset: Int) -> JSONParser {
    var copy = self
    copy.position = offset
    copy.depth = 0
    return copy
  }

  // MARK: Whitespace and single bytes

  /// Skips JSON whitespace (space, tab, line feed, carriage return).
  package mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  /// The next byte after whitespace, not consumed; nil at the end.
  package mutating func peek() -> UInt8? {
    skipWhitespace()
    return position < bytes.count ? bytes[position] : nil
  }

  /// Consumes `byte` (after whitespace) if it comes next.
  package mutating func take(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  /// Checks that only whitespace is left: one document, no trailing garbage.
  package mutating func finish() throws(JSONParseError) {
    skipWhitespace()
    guard position == bytes.count else {
      throw JSONParseError(
        offset: position, reason: "unexpected \(describe(position)) after the JSON value")
    }
  }

  /// `expected <what>, found <the byte at position>`, at ``position``.
  package func failure(_ expected: String) -> JSONParseError {
    JSONParseError(offset: position, reason: "expected \(expected), found \(describe(position))")
  }

  /// The byte at `index` for an error message: `'x'`, `byte 0x0A`, or the end of the data.
  package func describe(_ index: Int) -> String {
    guard index < bytes.count else { return "end of data (truncated?)" }
    let byte = bytes[index]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = Array("0123456789ABCDEF")
    return "byte 0x\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
  }

  // MARK: Literals and numbers

  /// Consumes `null` if it comes next.
  package mutating func readNull() -> Bool {
    skipWhitespace()
    guard bytes.count - position >= 4, bytes[position] == UInt8(ascii: "n"),
      bytes[position + 1] == UInt8(ascii: "u"), bytes[position + 2] == UInt8(ascii: "l"),
      bytes[position + 3] == UInt8(ascii: "l")
    else { return false }
    position += 4
    return true
  }

  /// Reads `word` (`true`, `false`, `null`); the error points at the first byte that differs.
  package mutating func readLiteral(_ word: StaticString) throws(JSONParseError) {
    skipWhitespace()
    let count = word.utf8CodeUnitCount
    let start = word.utf8Start
    for offset in 0..<count {
      guard position < bytes.count, bytes[position] == start[offset] else {
        throw failure("'\(word)'")
      }
      position += 1
    }
  }

  /// Reads `true` or `false`.
  package mutating func readBool() throws(JSONParseError) -> Bool {
    switch peek() {
    case UInt8(ascii: "t"):
      try readLiteral("true")
      return true
    case UInt8(ascii: "f"):
      try readLiteral("false")
      return false
    default:
      throw failure("true or false")
    }
  }

  /// Reads a number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) and returns its range.
  ///
  /// A number of any size is accepted: the caller decides what it can hold.
  package mutating func readNumber() throws(JSONParseError) -> Range<Int> {
    skipWhitespace()
    let start = position
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count, Self.isDigit(bytes[position]) else {
      throw position == start ? failure("a JSON value") : failure("a digit")
    }
    if bytes[position] == UInt8(ascii: "0") {
      // No leading zeros: "01" is the number 0 followed by an unexpected "1".
      position += 1
    } else {
      skipDigits()
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard position < bytes.count, Self.isDigit(bytes[position]) else {
        throw failure("a digit after '.'")
      }
      skipDigits()
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard position < bytes.count, Self.isDigit(bytes[position]) else {
        throw failure("a digit in the exponent")
      }
      skipDigits()
    }
    return start..<position
  }

  /// Reads a number and returns its exact text (`1`, `-0.5`, `1e3`).
  package mutating func readNumberText() throws(JSONParseError) -> String {
    String(decoding: bytes[try readNumber()], as: UTF8.self)
  }

  /// Reads a number written as an integer (no fraction, no exponent) that fits in `Int`.
  ///
  /// `-0` reads as 0 (it is a valid JSON integer); a caller that must tell them apart looks at
  /// the byte at the start.
  package mutating func readInt() throws(JSONParseError) -> Int {
    skipWhitespace()
    let start = position
    guard position < bytes.count,
      bytes[position] == UInt8(ascii: "-") || Self.isDigit(bytes[position])
    else { throw failure("an integer") }
    let range = try readNumber()
    let negative = bytes[start] == UInt8(ascii: "-")
    var value = 0
    for index in (negative ? start + 1 : start)..<range.upperBound {
      let byte = bytes[index]
      guard Self.isDigit(byte) else {
        throw JSONParseError(
          offset: start, reason: "expected an integer, found a number with a fraction or exponent")
      }
      let digit = Int(byte &- 0x30)
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) =
        negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
      guard !overflow1, !overflow2 else {
        throw JSONParseError(offset: start, reason: "integer too large for 64 bits")
      }
      value = sum
    }
    return value
  }

  /// ``readInt()``, or nil for `null`.
  package mutating func readOptionalInt() throws(JSONParseError) -> Int? {
    readNull() ? nil : try readInt()
  }

  private mutating func skipDigits() {
    while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte &- 0x30 < 10
  }

  // MARK: Containers

  /// Reads `{ … }`, calling `member` with each key (in document order, repeats included);
  /// `member` must read exactly the value.
  package mutating func readObject(
    _ member: (String, inout JSONParser) throws(JSONParseError) -> Void
  ) throws(JSONParseError) {
    skipWhitespace()
    guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else {
      throw failure("an object")
    }
    try enter()
    if take(UInt8(ascii: "}")) {
      depth -= 1
      return
    }
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw failure("a member name in double quotes")
      }
      let key = try readString()
      guard take(UInt8(ascii: ":")) else { throw failure("':'") }
      try member(key, &self)
      skipWhitespace()
      guard position < bytes.count else { throw failure("',' or '}'") }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
      case UInt8(ascii: "}"):
        position += 1
        depth -= 1
        return
      default:
        throw failure("',' or '}'")
      }
    }
  }

  /// Reads `[ … ]`, calling `element` for each element; `element` must read exactly one value.
  package mutating func readArray(_ element: (inout JSONParser) throws(JSONParseError) -> Void)
    throws(JSONParseError)
  {
    skipWhitespace()
    guard position < bytes.count, bytes[position] == UInt8(ascii: "[") else {
      throw failure("an array")
    }
    try enter()
    if take(UInt8(ascii: "]")) {
      depth -= 1
      return
    }
    while true {
      try element(&self)
      skipWhitespace()
      guard position < bytes.count else { throw failure("',' or ']'") }
      switch bytes[position] {
      case UInt8(ascii: ","):
        position += 1
      case UInt8(ascii: "]"):
        position += 1
        depth -= 1
        return
      default:
        throw failure("',' or ']'")
      }
    }
  }

  /// Steps over the opening bracket at ``position`` into a container, within the depth limit.
  private mutating func enter() throws(JSONParseError) {
    guard depth < options.maximumDepth else {
      throw JSONParseError(
        offset: position, reason: "nested more than \(options.maximumDepth) levels deep")
    }
    depth += 1
    position += 1
  }

  // MARK: Skipping

  /// Reads any one value, checking all of it, and returns its raw range (without whitespace).
  @discardableResult
  package mutating func skipValue() throws(JSONParseError) -> Range<Int> {
    skipWhitespace()
    let start = position
    guard position < bytes.count else { throw failure("a JSON value") }
    switch bytes[position] {
    case UInt8(ascii: "\""):
      _ = try readString()
    case UInt8(ascii: "{"):
      try readObject { _, parser throws(JSONParseError) in try parser.skipValue() }
    case UInt8(ascii: "["):
      try readArray { parser throws(JSONParseError) in try parser.skipValue() }
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
      _ = try readBool()
    case UInt8(ascii: "n"):
      try readLiteral("null")
    default:
      _ = try readNumber()
    }
    return start..<position
  }

  /// Skips one value by its brackets and string quotes only, checking nothing in between, and
  /// returns its raw range: the fast mode that finds where a value ends (a page's books) and
  /// leaves judging it to the reader of that value.
  package mutating func skipValueUnchecked() throws(JSONParseError) -> Range<Int> {
    skipWhitespace()
    let start = position
    guard position < bytes.count else {
      throw JSONParseError(offset: position, reason: "unexpected end of data")
    }
    switch bytes[position] {
    case UInt8(ascii: "\""):
      try skipStringUnchecked()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var open = 0
      while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "\""):
          try skipStringUnchecked()
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          open += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          open -= 1
          if open == 0 {
            position += 1
            return start..<position
          }
        default:
          break
        }
        position += 1
      }
      throw JSONParseError(offset: position, reason: "unexpected end of data (truncated body?)")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"),
      UInt8(ascii: "f"), UInt8(ascii: "n"):
      scan: while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D:
          break scan
        default:
          position += 1
        }
      }
    default:
      throw failure("a JSON value")
    }
    return start..<position
  }

  /// Steps over the string at ``position`` by its quotes, honouring backslashes only.
  private mutating func skipStringUnchecked() throws(JSONParseError) {
    position += 1
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "\\"): position += 2
      case UInt8(ascii: "\""):
        position += 1
        return
      default: position += 1
      }
    }
    position = bytes.count
    throw JSONParseError(offset: position, reason: "unterminated string (truncated body?)")
  }

  // MARK: Locations

  /// `line L, column C` (both from 1; columns count characters) for a byte offset of `bytes`.
  package static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> String {
    let end = min(offset, bytes.count)
    var line = 1
    var lineStart = 0
    for index in 0..<end where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    // Count characters, not bytes: skip UTF-8 continuation bytes.
    let column = 1 + bytes[lineStart..<end].count { $0 & 0xC0 != 0x80 }
    return "line \(line), column \(column)"
  }
}
