/// A strict, allocation-light JSON reader for the fast path of ``Book/decode(from:path:)``.
///
/// Every method returns nil as soon as the input is anything but well-formed JSON of the
/// expected type (or something this reader does not want to judge, like a number with a
/// fraction where an integer is expected, or a duplicated key); the caller then falls back to
/// Foundation's `JSONDecoder`, which gives the same result or the precise error. So this reader
/// only has to be right about what it accepts.
struct StrictJSONReader {
  let bytes: [UInt8]
  var index = 0
  /// How deep unknown values may nest before the reader gives up (and the fallback decides).
  static let maxDepth = 64

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  var atEnd: Bool { index >= bytes.count }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// Consumes `byte` (after whitespace) if it is next.
  mutating func take(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// Consumes `null` if it is next.
  mutating func takeNull() -> Bool {
    skipWhitespace()
    return takeLiteral("null")
  }

  private mutating func takeLiteral(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - index >= count else { return false }
    let matches = literal.withUTF8Buffer { buffer in
      buffer.indices.allSatisfy { bytes[index + $0] == buffer[$0] }
    }
    guard matches else { return false }
    index += count
    return true
  }

  mutating func readBool() -> Bool? {
    skipWhitespace()
    if takeLiteral("true") { return true }
    if takeLiteral("false") { return false }
    return nil
  }

  /// An integer written plainly (`-?(0|[1-9][0-9]*)`) that fits in `Int`; `-0` is left to the
  /// fallback.
  mutating func readInt() -> Int? {
    skipWhitespace()
    var position = index
    let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
    if negative { position += 1 }
    let digitsStart = position
    var value = 0
    while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
      let digit = Int(bytes[position] - 0x30)
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) =
        negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
      guard !overflow1, !overflow2 else { return nil }
      value = sum
      position += 1
    }
    let digitCount = position - digitsStart
    guard digitCount > 0, !(digitCount > 1 && bytes[digitsStart] == 0x30) else { return nil }
    if negative && value == 0 { return nil }
    if position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
      default: break
      }
    }
    index = position
    return value
  }

  /// A string, unescaped, as valid UTF-8.
  mutating func readString() -> String? {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    var position = index + 1
    let start = position
    var ascii = true
    // Fast scan: no escapes is the common case, and plain ASCII needs no UTF-8 validation.
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let text =
          ascii
          ? String(decoding: bytes[start..<position], as: UTF8.self)
          : String(validating: bytes[start..<position], as: UTF8.self)
        guard let text else { return nil }
        index = position + 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { return nil }
      if byte >= 0x80 { ascii = false }
      position += 1
    }
    guard position < bytes.count else { return nil }
    var buffer = Array(bytes[start..<position])
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = String(validating: buffer, as: UTF8.self) else { return nil }
        index = position + 1
        return text
      case UInt8(ascii: "\\"):
        guard position + 1 < bytes.count else { return nil }
        let escape = bytes[position + 1]
        position += 2
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
          guard let scalar = readUnicodeEscape(&position) else { return nil }
          buffer.append(contentsOf: String(Character(scalar)).utf8)
        default:
          return nil
        }
      default:
        if byte < 0x20 { return nil }
        buffer.append(byte)
        position += 1
      }
    }
    return nil
  }

  /// The scalar of `XXXX` (after `\u`) at `position`, joining a surrogate pair; nil for a lone
  /// surrogate (left to the fallback).
  private func readUnicodeEscape(_ position: inout Int) -> Unicode.Scalar? {
    guard let high = hex4(at: position) else { return nil }
    position += 4
    if (0xD800...0xDBFF).contains(high) {
      guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
        bytes[position + 1] == UInt8(ascii: "u"), let low = hex4(at: position + 2),
        (0xDC00...0xDFFF).contains(low)
      else { return nil }
      position += 6
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }
    return Unicode.Scalar(high)
  }

  private func hex4(at position: Int) -> UInt32? {
    guard position + 4 <= bytes.count else { return nil }
    var value: UInt32 = 0
    for byte in bytes[position..<(position + 4)] {
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Skips any one value, checking that it is well-formed JSON.
  mutating func skipValue(depth: Int = 0) -> Bool {
    guard depth < Self.maxDepth else { return false }
    skipWhitespace()
    guard index < bytes.count else { return false }
    switch bytes[index] {
    case UInt8(ascii: "\""):
      return readString() != nil
    case UInt8(ascii: "{"):
      index += 1
      if take(UInt8(ascii: "}")) { return true }
      repeat {
        guard readString() != nil, take(UInt8(ascii: ":")), skipValue(depth: depth + 1) else {
          return false
        }
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      index += 1
      if take(UInt8(ascii: "]")) { return true }
      repeat {
        guard skipValue(depth: depth + 1) else { return false }
      } while take(UInt8(ascii: ","))
      return take(UInt8(ascii: "]"))
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
      return readBool() != nil
    case UInt8(ascii: "n"):
      return takeNull()
    default:
      return skipNumber()
    }
  }

  /// Any JSON number (`-?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?`).
  private mutating func skipNumber() -> Bool {
    var position = index
    func digits() -> Int {
      let start = position
      while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
        position += 1
      }
      return position - start
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
    let integerStart = position
    let integerDigits = digits()
    guard integerDigits > 0, !(integerDigits > 1 && bytes[integerStart] == 0x30) else {
      return false
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits() > 0 else { return false }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard digits() > 0 else { return false }
    }
    index = position
    return true
  }

  /// Reads an object's members, calling `member` with each key; `member` reads the value and
  /// returns false to give up (it also decides about repeated keys).
  mutating func readObject(_ member: (inout StrictJSONReader, String) -> Bool) -> Bool {
    guard take(UInt8(ascii: "{")) else { return false }
    if take(UInt8(ascii: "}")) { return true }
    repeat {
      guard let key = readString(), take(UInt8(ascii: ":")), member(&self, key) else {
        return false
      }
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "}"))
  }

  /// Reads an array, calling `element` for each element; false to give up.
  mutating func readArray(_ element: (inout StrictJSONReader) -> Bool) -> Bool {
    guard take(UInt8(ascii: "[")) else { return false }
    if take(UInt8(ascii: "]")) { return true }
    repeat {
      guard element(&self) else { return false }
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "]"))
  }
}
