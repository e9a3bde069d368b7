import Foundation

/// A minimal JSON scanner that finds the byte ranges of values without building them.
///
/// It lets a page keep each book's exact bytes (Foundation's decoders do not keep key order or
/// the original text) and lets errors name the JSON path and byte offset that failed.
struct JSONScanner {
  let bytes: [UInt8]

  init(_ data: Data) {
    bytes = [UInt8](data)
  }

  struct Failure: Error {
    var offset: Int
    var reason: String
  }

  /// The members of the object that spans `range`: each key with the byte range of its value.
  func objectMembers(in range: Range<Int>) throws(Failure) -> [(key: String, value: Range<Int>)] {
    var index = skipWhitespace(range.lowerBound, range.upperBound)
    guard index < range.upperBound, bytes[index] == UInt8(ascii: "{") else {
      throw Failure(offset: index, reason: "expected a JSON object, found \(describe(index))")
    }
    index += 1
    var members: [(String, Range<Int>)] = []
    index = skipWhitespace(index, range.upperBound)
    if index < range.upperBound, bytes[index] == UInt8(ascii: "}") { return [] }
    while true {
      index = skipWhitespace(index, range.upperBound)
      guard index < range.upperBound, bytes[index] == UInt8(ascii: "\"") else {
        throw Failure(offset: index, reason: "expected a key, found \(describe(index))")
      }
      let keyEnd = try skipString(index, range.upperBound)
      let key = try decodeString(index..<keyEnd)
      index = skipWhitespace(keyEnd, range.upperBound)
      guard index < range.upperBound, bytes[index] == UInt8(ascii: ":") else {
        throw Failure(offset: index, reason: "expected ':', found \(describe(index))")
      }
      index = skipWhitespace(index + 1, range.upperBound)
      let valueEnd = try skipValue(index, range.upperBound)
      members.append((key, index..<valueEnd))
      index = skipWhitespace(valueEnd, range.upperBound)
      guard index < range.upperBound else {
        throw Failure(offset: index, reason: "unexpected end of data inside an object")
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        return members
      } else {
        throw Failure(offset: index, reason: "expected ',' or '}', found \(describe(index))")
      }
    }
  }

  /// The byte ranges of the elements of the array that spans `range`.
  func arrayElements(in range: Range<Int>) throws(Failure) -> [Range<Int>] {
    var index = skipWhitespace(range.lowerBound, range.upperBound)
    guard index < range.upperBound, bytes[index] == UInt8(ascii: "[") else {
      throw Failure(offset: index, reason: "expected an array, found \(describe(index))")
    }
    index = skipWhitespace(index + 1, range.upperBound)
    var elements: [Range<Int>] = []
    if index < range.upperBound, bytes[index] == UInt8(ascii: "]") { return [] }
    while true {
      index = skipWhitespace(index, range.upperBound)
      let end = try skipValue(index, range.upperBound)
      elements.append(index..<end)
      index = skipWhitespace(end, range.upperBound)
      guard index < range.upperBound else {
        throw Failure(offset: index, reason: "unexpected end of data inside an array")
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        return elements
      } else {
        throw Failure(offset: index, reason: "expected ',' or ']', found \(describe(index))")
      }
    }
  }

  /// True when only whitespace follows `index`.
  func onlyWhitespace(after index: Int) -> Bool {
    skipWhitespace(index, bytes.count) == bytes.count
  }

  /// The text of the literal, number or string spanning `range` (strings are unescaped).
  func scalarText(_ range: Range<Int>) throws(Failure) -> String? {
    guard let first = range.first.map({ bytes[$0] }) else { return nil }
    if first == UInt8(ascii: "\"") { return try decodeString(range) }
    let text = String(decoding: bytes[range], as: UTF8.self)
    return text == "null" ? nil : text
  }

  /// True when the value spanning `range` is a string.
  func isString(_ range: Range<Int>) -> Bool {
    range.first.map { bytes[$0] == UInt8(ascii: "\"") } ?? false
  }

  func skipWhitespace(_ start: Int, _ end: Int) -> Int {
    var index = start
    while index < end {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return index
      }
    }
    return index
  }

  /// The index just past the value that starts at `start`.
  func skipValue(_ start: Int, _ end: Int) throws(Failure) -> Int {
    guard start < end else { throw Failure(offset: start, reason: "unexpected end of data") }
    switch bytes[start] {
    case UInt8(ascii: "\""):
      return try skipString(start, end)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var index = start
      while index < end {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          index = try skipString(index, end)
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return index + 1 }
        default:
          break
        }
        index += 1
      }
      throw Failure(offset: end, reason: "unexpected end of data (truncated body?)")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"),
      UInt8(ascii: "f"), UInt8(ascii: "n"):
      var index = start
      while index < end {
        switch bytes[index] {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D:
          return index
        default:
          index += 1
        }
      }
      return index
    default:
      throw Failure(offset: start, reason: "expected a JSON value, found \(describe(start))")
    }
  }

  func skipString(_ start: Int, _ end: Int) throws(Failure) -> Int {
    var index = start + 1
    while index < end {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      default: index += 1
      }
    }
    throw Failure(offset: end, reason: "unterminated string (truncated body?)")
  }

  func decodeString(_ range: Range<Int>) throws(Failure) -> String {
    let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
    if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
    guard
      let value = try? JSONDecoder().decode(String.self, from: Data(bytes[range]))
    else { throw Failure(offset: range.lowerBound, reason: "invalid string escape") }
    return value
  }

  func describe(_ index: Int) -> String {
    guard index < bytes.count else { return "end of data" }
    let byte = bytes[index]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return String(format: "byte 0x%02X", byte)
  }
}
