import Foundation
import Testing

@testable import Gutendex

/// The package's one JSON parser against JSONTestSuite-style cases: `y_` documents it must
/// accept, `n_` documents it must refuse (at the right byte), and `i_` cases where RFC 8259
/// leaves the choice to the implementation (nesting depth, lone surrogates, invalid UTF-8, huge
/// numbers, a byte order mark), each pinned to what the options say.
@Suite struct JSONConformanceTests {
  /// Reads one whole document, checking every byte; the value's range.
  static func parse(_ bytes: [UInt8], _ options: JSONParser.Options = .strict)
    throws(JSONParseError) -> Range<Int>
  {
    var parser = JSONParser(bytes, options: options)
    let range = try parser.skipValue()
    try parser.finish()
    return range
  }

  /// The offset at which the document is refused, nil if it is accepted.
  static func refusal(_ bytes: [UInt8], _ options: JSONParser.Options = .strict) -> Int? {
    let error = #expect(throws: JSONParseError.self) { try parse(bytes, options) }
    return error?.offset
  }

  /// The one string a document holds, read with `options`.
  static func string(_ bytes: [UInt8], _ options: JSONParser.Options = .strict)
    throws(JSONParseError) -> String
  {
    var parser = JSONParser(bytes, options: options)
    let text = try parser.readString()
    try parser.finish()
    return text
  }

  // MARK: y_: must accept

  @Test(arguments: [
    "[]", "{}", " [ ] ", "\t\n\r 1 \r\n", "0", "-0", "1E+2", "1e-2", "-0.0e0", "123.456e78",
    "[1e999]", "[-1e-999]", "[100000000000000000000000000000000000000000]", #""""#, "null",
    "true", "false", "[[[]]]", #"{"a":{"b":[1,{"c":null}],"d":[true,false]}}"#,
    #"{"a":1,"a":2}"#, #"["\u0000"]"#, #"["\/\\\"\b\f\n\r\t"]"#, #"["\ud83d\ude00"]"#,
    "[\"\u{7F}\"]", #"["日本語 ✓"]"#, "[\"\u{FFFF}\u{10FFFF}\"]", #"{"":""}"#, #"[-1,0.5,1e1]"#,
  ])
  func accepts(text: String) throws {
    let bytes = Array(text.utf8)
    let range = try Self.parse(bytes)
    // The raw range is the value without the surrounding whitespace.
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(String(decoding: bytes[range], as: UTF8.self) == trimmed)
  }

  @Test func stringsUnescapeToTheirCharacters() throws {
    #expect(try Self.string(Array(#""a\"b\\c\/d\b\f\n\r\t""#.utf8)) == "a\"b\\c/d\u{8}\u{C}\n\r\t")
    #expect(try Self.string(Array(#""\u00e9\u00E9é\ud83d\ude00\u0000""#.utf8)) == "ééé😀\u{0}")
    #expect(try Self.string(Array("\"\u{10FFFF}\u{FFFF}\"".utf8)) == "\u{10FFFF}\u{FFFF}")
  }

  @Test func numbersKeepTheirText() throws {
    for text in ["-0.5e+10", "1E400", "100000000000000000000000000000000000000000", "-0"] {
      var parser = JSONParser(Array("[\(text)]".utf8))
      var read: [String] = []
      try parser.readArray { parser throws(JSONParseError) in
        read.append(try parser.readNumberText())
      }
      #expect(read == [text])
    }
  }

  @Test func objectsGiveEveryMemberInOrderRepeatsIncluded() throws {
    var parser = JSONParser(Array(#"{"b":1,"a":2,"b":3}"#.utf8))
    var members: [String] = []
    try parser.readObject { key, parser throws(JSONParseError) in
      members.append("\(key)=\(try parser.readInt())")
    }
    #expect(members == ["b=1", "a=2", "b=3"])
  }

  // MARK: n_: must refuse, at this offset

  @Test(arguments: [
    ("", 0), (" ", 1), ("[1,]", 3), ("[1 2]", 3), (#"{"a":1,}"#, 7), (#"{"a" 1}"#, 5),
    ("{a:1}", 1), ("{1:1}", 1), ("[01]", 2), ("[-]", 2), ("[1.]", 3), ("[.5]", 1), ("[1e]", 3),
    ("[1e+]", 4), ("[+1]", 1), ("[NaN]", 1), ("[Infinity]", 1), ("[-Infinity]", 2),
    ("[0x10]", 2), ("[tru]", 4), ("[nul]", 4), ("[True]", 1), (#"["a\qb"]"#, 3),
    (#"["\u12G4"]"#, 6), (#"["\u00"]"#, 6), ("[\"a\tb\"]", 3), ("[\"\u{0}\"]", 2),
    ("[\"a\nb\"]", 3), (#""abc"#, 4), (#"["abc"#, 5), ("[1", 2), (#"{"a":1"#, 6),
    ("[1] 2", 4), ("[1]]", 3), ("{}x", 2), ("'a'", 0), ("[", 1), ("]", 0), ("{", 1),
    (#"{"a":}"#, 5), (#"["a",]"#, 5), (#"["\"#, 3), (#"["\ud800"]"#, 2), (#"["\udc00"]"#, 2),
    (#"["\ud800\u0041"]"#, 2), (#"["x\ud83d"]"#, 3), ("[1]\u{0}", 3), ("nulls", 4),
  ])
  func refuses(text: String, offset: Int) {
    #expect(Self.refusal(Array(text.utf8)) == offset, "\(text)")
  }

  @Test(
    arguments: [
      // Not UTF-8: a bad continuation, a lone continuation, bytes never used, overlong "/",
      // an overlong three-byte form, an encoded surrogate, above U+10FFFF, cut before the quote.
      [0xC3, 0x28], [0x80], [0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80],
      [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    ] as [[UInt8]])
  func refusesInvalidUTF8AtItsFirstByte(sequence: [UInt8]) {
    // After plain text, and after an escape (the slow path).
    #expect(Self.refusal(Array(#"["ab"#.utf8) + sequence + Array(#""]"#.utf8)) == 4)
    #expect(Self.refusal(Array(#"["\n"#.utf8) + sequence + Array(#"x"]"#.utf8)) == 4)
  }

  /// The import's error locations: line and column of the offset, columns in characters.
  @Test(arguments: [
    ("", 0, "line 1, column 1"),
    ("{\"a\":1,}", 7, "line 1, column 8"),
    ("[1,\n2,\n  x]", 9, "line 3, column 3"),
    ("\"unterminated", 13, "line 1, column 14"),
    ("[01]", 2, "line 1, column 3"),
    ("{\"é\": tru}", 10, "line 1, column 10"),
    ("[1] 2", 4, "line 1, column 5"),
    ("\"bad \\q escape\"", 5, "line 1, column 6"),
  ])
  func syntaxErrorsCarryTheirPosition(text: String, offset: Int, position: String) {
    let bytes = Array(text.utf8)
    #expect(Self.refusal(bytes) == offset)
    #expect(JSONParser.lineAndColumn(of: offset, in: bytes) == position)
  }

  @Test func errorsSayWhatWasExpectedAndFound() {
    let error = #expect(throws: JSONParseError.self) {
      try Self.parse(Array(#"{"a":1 "b":2}"#.utf8))
    }
    #expect(error == JSONParseError(offset: 7, reason: "expected ',' or '}', found '\"'"))
    #expect(error?.description == "expected ',' or '}', found '\"' at byte 7")
    let end = #expect(throws: JSONParseError.self) { try Self.parse(Array("[1,".utf8)) }
    #expect(end?.reason == "expected a JSON value, found end of data (truncated?)")
  }

  // MARK: i_: implementation-defined, pinned by the options

  @Test func nestingDeeperThanTheLimitIsRefusedWhereItStarts() throws {
    let limit = JSONParser.Options.strict.maximumDepth
    let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
    _ = try Self.parse(Array(deepest.utf8))
    let tooDeep = "[" + deepest + "]"
    #expect(Self.refusal(Array(tooDeep.utf8)) == limit)
    // No stack overflow, whatever the input.
    #expect(Self.refusal(Array(String(repeating: "[", count: 100_000).utf8)) == limit)
    let objects =
      String(repeating: #"{"a":"#, count: 300) + "1" + String(repeating: "}", count: 300)
    #expect(Self.refusal(Array(objects.utf8)) == 5 * limit)
    // A smaller limit, as the book fast path uses.
    let small = JSONParser.Options(maximumDepth: 64)
    let sixtyFive = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(Self.refusal(Array(sixtyFive.utf8), small) == 64)
  }

  @Test func loneSurrogatesAreRefusedOrReplaced() throws {
    let replace = JSONParser.Options(replacesInvalidUnicode: true)
    #expect(Self.refusal(Array(#""\ud800""#.utf8)) == 1)
    #expect(try Self.string(Array(#""a\ud800b""#.utf8), replace) == "a\u{FFFD}b")
    #expect(try Self.string(Array(#""\udc00""#.utf8), replace) == "\u{FFFD}")
    #expect(try Self.string(Array(#""\ud800\u0041""#.utf8), replace) == "\u{FFFD}A")
    #expect(try Self.string(Array(#""\ud800\ud800""#.utf8), replace) == "\u{FFFD}\u{FFFD}")
    // A pair is a pair in both modes.
    #expect(try Self.string(Array(#""\ud83d\ude00""#.utf8), replace) == "😀")
  }

  @Test func invalidUTF8IsRefusedOrReplaced() throws {
    let replace = JSONParser.Options(replacesInvalidUnicode: true)
    let bytes: [UInt8] = [0x22, 0x61, 0xC3, 0x28, 0x62, 0x22]
    #expect(Self.refusal(bytes) == 2)
    #expect(try Self.string(bytes, replace) == "a\u{FFFD}(b")
    let escaped: [UInt8] = [0x22, 0x5C, 0x6E, 0xFF, 0x22]
    #expect(try Self.string(escaped, replace) == "\n\u{FFFD}")
  }

  @Test func hugeNumbersAreAcceptedButNotAsIntegers() throws {
    #expect(throws: Never.self) {
      try Self.parse(Array("[1e99999, 123456789012345678901234567890]".utf8))
    }
    for (text, value) in [
      ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("-0", 0), ("0", 0),
    ] {
      var parser = JSONParser(Array(text.utf8))
      #expect(try parser.readInt() == value)
    }
    for text in ["9223372036854775808", "-9223372036854775809", "1.0", "1e2", "true", "\"1\""] {
      var parser = JSONParser(Array(" \(text)".utf8))
      let error = #expect(throws: JSONParseError.self, "\(text)") { try parser.readInt() }
      #expect(error?.offset == 1, "\(text)")
    }
  }

  @Test func aByteOrderMarkIsRefusedUnlessSkipped() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
    let error = #expect(throws: JSONParseError.self) { try Self.parse(bytes) }
    #expect(error == JSONParseError(offset: 0, reason: "expected a JSON value, found byte 0xEF"))
    #expect(try Self.parse(bytes, JSONParser.Options(skipsByteOrderMark: true)) == 3..<6)
  }

  // MARK: The structural fast mode

  @Test func uncheckedSkipFindsTheEndWithoutJudgingTheInside() throws {
    var parser = JSONParser(Array(#" {"a" 1 x, "b":"}]\"{"} [2]"#.utf8))
    #expect(try parser.skipValueUnchecked() == 1..<23)
    #expect(try parser.skipValueUnchecked() == 24..<27)
    for (text, offset, reason) in [
      ("", 0, "unexpected end of data"),
      ("  ", 2, "unexpected end of data"),
      (#"[{"a":"]"}"#, 10, "unexpected end of data (truncated body?)"),
      (#""abc\""#, 6, "unterminated string (truncated body?)"),
      ("<html>", 0, "expected a JSON value, found '<'"),
    ] {
      var parser = JSONParser(Array(text.utf8))
      let error = #expect(throws: JSONParseError.self, "\(text)") {
        try parser.skipValueUnchecked()
      }
      #expect(error == JSONParseError(offset: offset, reason: reason), "\(text)")
    }
  }

  @Test func aParserAtARawRangeReadsThatValue() throws {
    var parser = JSONParser(Array(#"{"x":[1,"two"],"y":3}"#.utf8))
    var ranges: [String: Range<Int>] = [:]
    try parser.readObject { key, parser throws(JSONParseError) in
      ranges[key] = try parser.skipValue()
    }
    var inner = parser.parser(at: try #require(ranges["x"]).lowerBound)
    var strings: [String] = []
    try inner.readArray { parser throws(JSONParseError) in
      if parser.peek() == UInt8(ascii: "\"") {
        strings.append(try parser.readString())
      } else {
        try parser.skipValue()
      }
    }
    #expect(strings == ["two"])
    #expect(inner.position == ranges["x"]?.upperBound)
  }
}
