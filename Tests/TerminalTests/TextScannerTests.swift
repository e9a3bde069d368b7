import Foundation
import Testing

@testable import Terminal

/// The library search's scanner on bytes: folding (case, accents, spaces) mapped back to the
/// file's offsets, one match per line, and lines longer than its buffer, whose matches across
/// the buffer's cut are found once and whole.
@Suite struct TextScannerTests {
  /// The matches of `words` in `text` (written to a temporary file), with a buffer of `buffer`
  /// bytes, as (offset, the matched bytes decoded).
  static func matches(_ words: String, in text: Data, buffer: Int = 1 << 20) throws -> [(
    Int, String
  )] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scanner-\(UUID().uuidString).txt")
    try text.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let descriptor = open(file.path, O_RDONLY)
    defer { close(descriptor) }
    let folding = TextFolding()
    let scanner = TextScanner(needle: folding.needle(words), folding: folding, bufferSize: buffer)
    var found: [(Int, String)] = []
    let outcome = try scanner.scan(descriptor) { range in
      found.append((range.lowerBound, String(decoding: text[range], as: UTF8.self)))
      return true
    }
    #expect(outcome == .searched)
    return found
  }

  @Test func caseAccentsAndSpacesFoldAndMapBackToTheBytes() throws {
    let text = Data("Être ou ne  pas ÊTRE,\nl'e\u{301}te\u{301}   dernier: Ete\n".utf8)
    let found = try Self.matches("etre", in: text)
    // One match per line: the first.
    #expect(found.map(\.1) == ["Être"])
    #expect(found.map(\.0) == [0])
    let summer = try Self.matches("ÉTÉ DERNIER", in: text)
    let start = "Être ou ne  pas ÊTRE,\nl'".utf8.count
    #expect(summer.map(\.0) == [start])
    #expect(summer.map(\.1) == ["e\u{301}te\u{301}   dernier"])
    #expect(try Self.matches("ne pas", in: text).map(\.1) == ["ne  pas"])
    #expect(try Self.matches("nowhere", in: text).isEmpty)
  }

  @Test func tabsRunsOfSpacesAndCaseFoldAtEveryAlignment() throws {
    // Eight bytes are folded at a time where they allow it: every alignment of the tricky
    // bytes against those eight is tried.
    for shift in 0..<17 {
      let prefix = String(repeating: "x", count: shift)
      let text = Data((prefix + "AZ[@ Ne \t  PAS `z{ end\n").utf8)
      #expect(try Self.matches("ne pas", in: text).map(\.0) == [shift + 5], "shift \(shift)")
      #expect(try Self.matches("az[@", in: text).map(\.0) == [shift], "shift \(shift)")
      #expect(try Self.matches("`z{ end", in: text).map(\.0) == [shift + 15], "shift \(shift)")
      #expect(try Self.matches("ne  pas", in: text).map(\.1) == ["Ne \t  PAS"], "shift \(shift)")
      #expect(try Self.matches("a", in: text).map(\.0) == [shift], "shift \(shift)")
    }
  }

  @Test func aMatchAcrossTheBufferCutOfAVeryLongLineIsFoundOnceAndWhole() throws {
    // One line of 12,000 bytes read 2,048 at a time; the word put at every position around
    // the cuts (the buffer is cut `overlap` bytes before its end) is found once, where it is.
    // (An accent first, so the 2,048 bytes the encoding is chosen from are seen as UTF-8.)
    let word = "Zéphyrine"
    for position in 1_700..<2_100 {
      var line = "à" + String(repeating: "x", count: 11_999)
      line.replaceSubrange(
        line.index(
          line.startIndex, offsetBy: position)..<line.index(
            line.startIndex, offsetBy: position + 9), with: word)
      let found = try Self.matches("zephyrine", in: Data((line + "\n").utf8), buffer: 2_048)
      #expect(found.map(\.0) == [position + 1], "at \(position)")
      #expect(found.map(\.1) == [word], "at \(position)")
    }
  }

  @Test func oneMatchPerLineAcrossPieces() throws {
    // Lines of 300 bytes, each with the word twice, read 1,100 bytes at a time.
    let line =
      String(repeating: "a", count: 100) + " word " + String(repeating: "b", count: 100)
      + " WORD " + String(repeating: "c", count: 87) + "\r\n"
    let text = String(repeating: line, count: 40)
    let found = try Self.matches("word", in: Data(text.utf8), buffer: 1_100)
    #expect(found.map(\.0) == (0..<40).map { $0 * line.utf8.count + 101 })
  }
}
