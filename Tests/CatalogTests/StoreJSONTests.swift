import Foundation
import Gutendex
import Testing

@testable import Catalog

/// The JSON tree and writer behind export and import, and the store's date format (the parser
/// itself is checked by `JSONConformanceTests` in GutendexTests).
@Suite struct StoreJSONTests {
  @Test func compactReserializationReproducesTheServersBytes() throws {
    // The 2024 mirror recordings are the server's untouched compact UTF-8 output.
    let books = try StoreFixtures.english() + StoreFixtures.japanese()
    for book in books {
      let value = try StoreJSON.parse([UInt8](book.rawJSON))
      #expect(value.compact() == [UInt8](book.rawJSON), "book \(book.id)")
    }
  }

  @Test func parsesEscapesAndKeepsNumberText() throws {
    let text =
      #"{"s":"a\"b\\c\/d\n\u00e9\ud83d\ude00","n":[-0.5e+10,0,12],"t":true,"f":false,"z":null}"#
    let value = try StoreJSON.parse(Array(text.utf8))
    guard case .string(let string) = value["s"] else {
      Issue.record("s is not a string: \(value)")
      return
    }
    #expect(string == "a\"b\\c/d\né😀")
    #expect(
      String(decoding: value.compact(), as: UTF8.self)
        == #"{"s":"a\"b\\c/d\né😀","n":[-0.5e+10,0,12],"t":true,"f":false,"z":null}"#)
    #expect(
      String(decoding: value.compact(sortedKeys: true), as: UTF8.self)
        == #"{"f":false,"n":[-0.5e+10,0,12],"s":"a\"b\\c/d\né😀","t":true,"z":null}"#)
    // Control characters are escaped on output.
    #expect(
      String(decoding: StoreJSON.string("\u{1}\t").compact(), as: UTF8.self) == #""\u0001\t""#)
  }

  @Test func prettyOutputIsTwoSpaceIndentedWithSortedKeys() throws {
    let value = try StoreJSON.parse(Array(#"{"b":[1,{}],"a":{"y":[],"x":"v"}}"#.utf8))
    let expected = """
      {
        "a": {
          "x": "v",
          "y": []
        },
        "b": [
          1,
          {}
        ]
      }
      """
    #expect(String(decoding: value.pretty(), as: UTF8.self) == expected)
  }

  @Test func timestampsFormatAndParse() {
    let date = StoreFixtures.date(0.25)
    let milliseconds = StoreTimestamp.milliseconds(date)
    #expect(StoreTimestamp.iso8601(milliseconds: milliseconds) == "2025-06-01T00:00:00.250Z")
    #expect(
      StoreTimestamp.iso8601(milliseconds: milliseconds, fractional: false)
        == "2025-06-01T00:00:00Z")
    #expect(StoreTimestamp.iso8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    #expect(StoreTimestamp.parseISO8601("2025-06-01T00:00:00.250Z") == milliseconds)
    #expect(StoreTimestamp.parseISO8601("2025-06-01T00:00:00.25Z") == milliseconds)
    #expect(StoreTimestamp.parseISO8601("2025-06-01T02:00:00.250+02:00") == milliseconds)
    #expect(StoreTimestamp.parseISO8601("2025-05-31T23:00:00.250-0100") == milliseconds)
    #expect(StoreTimestamp.parseISO8601("2025-06-01T00:00:00Z") == milliseconds - 250)
    for bad in [
      "2025-02-30T00:00:00Z", "2025-06-01", "2025-06-01T00:00:00", "yesterday",
      "2025-06-01T24:00:00Z", "2025-06-01T00:00:00.Z", "2025-06-01T00:00:00Zjunk",
    ] {
      #expect(StoreTimestamp.parseISO8601(bad) == nil, "\(bad)")
    }
  }
}
