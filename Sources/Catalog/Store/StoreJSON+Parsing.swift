import Gutendex

extension StoreJSON {
  /// Parses a whole document (one value, surrounded only by whitespace) with the package's
  /// JSON parser, strictly; a UTF-8 byte order mark at the start is skipped (editors add it).
  static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> StoreJSON {
    var parser = JSONParser(bytes, options: JSONParser.Options(skipsByteOrderMark: true))
    guard parser.peek() != nil else {
      throw JSONParseError(offset: parser.position, reason: "no JSON value (the input is empty)")
    }
    let value = try read(&parser)
    try parser.finish()
    return value
  }

  /// The value at the parser's position, with member order and number text kept.
  static func read(_ parser: inout JSONParser) throws(JSONParseError) -> StoreJSON {
    switch parser.peek() {
    case UInt8(ascii: "{"):
      var members: [Member] = []
      try parser.readObject { key, parser throws(JSONParseError) in
        members.append(Member(key: key, value: try read(&parser)))
      }
      return .object(members)
    case UInt8(ascii: "["):
      var elements: [StoreJSON] = []
      try parser.readArray { parser throws(JSONParseError) in
        elements.append(try read(&parser))
      }
      return .array(elements)
    case UInt8(ascii: "\""):
      return .string(try parser.readString())
    case UInt8(ascii: "t"), UInt8(ascii: "f"):
      return .bool(try parser.readBool())
    case UInt8(ascii: "n"):
      try parser.readLiteral("null")
      return .null
    default:
      return .number(try parser.readNumberText())
    }
  }
}
