import Foundation
import Testing

@testable import Catalog

/// The writer's fast paths (plain strings, ASCII keys) keep the exact output.
@Suite struct StoreJSONFastPathTests {
  @Test func sortedKeysAreInByteOrderAndRepeatedKeysKeepTheirOrder() throws {
    let ascii = try StoreJSON.parse(Array(#"{"b":1,"a":2,"B":3,"a":4,"_":5}"#.utf8))
    #expect(
      String(decoding: ascii.compact(sortedKeys: true), as: UTF8.self)
        == #"{"B":3,"_":5,"a":2,"a":4,"b":1}"#)
    // UTF-8 byte order puts "z" (0x7A) before "é" (0xC3 0xA9) and "e\u{301}" after "e".
    let mixed = try StoreJSON.parse(Array(#"{"é":1,"z":2,"e\u0301":3,"e":4,"é":5}"#.utf8))
    #expect(
      String(decoding: mixed.compact(sortedKeys: true), as: UTF8.self)
        == "{\"e\":4,\"e\u{301}\":3,\"z\":2,\"é\":1,\"é\":5}")
  }

  @Test func plainAndNonASCIIStringsRoundTrip() throws {
    let text = #"["plain","日本語 ✓","tab\there","quote\"","",":"]"#
    let value = try StoreJSON.parse(Array(text.utf8))
    #expect(String(decoding: value.compact(), as: UTF8.self) == text)
  }
}
