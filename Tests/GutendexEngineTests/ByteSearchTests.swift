import TestSupport
import Testing

@testable import GutendexEngine

/// `ByteSearch.entries(containing:in:count:offset:)`, which every title, name, subject and token
/// search goes through, against the plain reading: entry by entry, does it hold the needle?
@Suite struct ByteSearchTests {
  /// The flags entry by entry, the slow way.
  private static func reference(_ needle: [UInt8], _ entries: [[UInt8]]) -> [Bool] {
    entries.map { entry in
      guard !needle.isEmpty else { return true }
      guard entry.count >= needle.count else { return false }
      return (0...(entry.count - needle.count)).contains {
        Array(entry[$0..<($0 + needle.count)]) == needle
      }
    }
  }

  private static func search(
    _ needle: [UInt8], _ entries: [[UInt8]], offsets: [Int]? = nil
  ) -> [Bool] {
    let bytes = entries.flatMap { $0 }
    var starts = [0]
    for entry in entries { starts.append(starts[starts.count - 1] + entry.count) }
    let table = offsets ?? starts
    return bytes.withUnsafeBytes { raw in
      ByteSearch.entries(containing: needle, in: raw, count: entries.count) { table[$0] }
    }
  }

  @Test func matchesOnlyInsideAnEntry() {
    let entries: [[UInt8]] = ["SHAKE", "SPEARE", "SHAKESPEARE", "", "ASHAKESPEAREAN", "SHAKESPEAR"]
      .map { Array($0.utf8) }
    let needle = Array("SHAKESPEARE".utf8)
    // "SHAKE" + "SPEARE" spell the needle across a boundary: not a match.
    #expect(Self.search(needle, entries) == [false, false, true, false, true, false])
  }

  @Test func agreesWithTheReferenceOnRandomTables() {
    var generator = SeededGenerator(seed: 36)
    // A small alphabet, so that partial and boundary-spanning matches are frequent.
    let alphabet = Array("ABS ".utf8)
    for _ in 0..<400 {
      let entries = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator) ?? 0x41
        }
      }
      let needle = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator) ?? 0x41
      }
      #expect(Self.search(needle, entries) == Self.reference(needle, entries))
    }
  }

  @Test func offsetsPastTheEndStayInside() {
    let entries: [[UInt8]] = ["ABC", "XYZ"].map { Array($0.utf8) }
    // A damaged table: the last offset points far past the bytes.
    let flags = Self.search(Array("XYZ".utf8), entries, offsets: [0, 3, 1_000_000])
    #expect(flags == [false, true])
    #expect(Self.search(Array("Q".utf8), entries, offsets: [0, 3, 1_000_000]) == [false, false])
  }
}
