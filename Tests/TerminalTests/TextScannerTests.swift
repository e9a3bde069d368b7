import Foundation
import Testing

@testable import Terminal

/// The library search's scanner on bytes: folding (case, accents, spaces) mapped back to the
/// file's offsets, one match per line, lines longer than a folded piece, whose matches across
/// the piece's cut are found once and whole, and the stretches of ASCII searched unfolded, which
/// find exactly what folding the whole file finds.
@Suite struct TextScannerTests {
  /// The matches of `words` in `text` (written to a temporary file and mapped), folding
  /// `piece` bytes at a time, as (offset, the matched bytes decoded).
  static func matches(_ words: String, in text: Data, piece: Int = 1 << 20) throws -> [(
    Int, String
  )] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scanner-\(UUID().uuidString).txt")
    try text.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let folding = TextFolding()
    let scanner = TextScanner(needle: folding.needle(words), folding: folding, pieceSize: piece)
    var found: [(Int, String)] = []
    let descriptor = open(file.path, O_RDONLY)
    defer { close(descriptor) }
    let outcome = scanner.scan(try SearchedText(descriptor: descriptor, count: text.count)) {
      range in
      found.append((range.lowerBound, String(decoding: text[range], as: UTF8.self)))
      return true
    }
    #expect(outcome == .searched)
    return found
  }

  /// What folding all of `text` at once finds: the first match of each line, as file ranges.
  static func reference(_ words: String, in text: Data) -> [Range<Int>] {
    let folding = TextFolding()
    let needle = folding.needle(words)
    let bytes = [UInt8](text)
    return bytes.withUnsafeBufferPointer { buffer in
      let folded = folding.fold(buffer, base: 0, encoding: TextBytes.encoding(of: buffer))
      var found: [Range<Int>] = []
      var from = 0
      while let match = folded.find(needle, from: from) {
        found.append(
          folded.fileOffset(ofStart: match.lowerBound)..<folded.fileOffset(ofEnd: match.upperBound))
        guard let lineEnd = folded.lineEnd(from: match.upperBound) else { break }
        from = lineEnd
      }
      return found
    }
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
    // One line of 12,000 bytes (with accents, so it is folded) folded 2,048 at a time; the word
    // put at every position around the cuts (a piece is cut `overlap` bytes before its end) is
    // found once, where it is.
    let word = "Zéphyrine"
    for position in 1_700..<2_100 {
      var line = "à" + String(repeating: "x", count: 11_999)
      line.replaceSubrange(
        line.index(
          line.startIndex, offsetBy: position)..<line.index(
            line.startIndex, offsetBy: position + 9), with: word)
      let found = try Self.matches("zephyrine", in: Data((line + "\n").utf8), piece: 2_048)
      #expect(found.map(\.0) == [position + 1], "at \(position)")
      #expect(found.map(\.1) == [word], "at \(position)")
    }
  }

  @Test func oneMatchPerLineAcrossPieces() throws {
    // Lines of 300 bytes, each with the word twice, folded 1,100 bytes at a time (an accent on
    // each line has them folded) or searched as ASCII.
    for filler in ["c", "é"] {
      let line =
        String(repeating: "a", count: 100) + " word " + String(repeating: "b", count: 100)
        + " WORD " + String(repeating: filler, count: 87) + "\r\n"
      let text = String(repeating: line, count: 40)
      let found = try Self.matches("word", in: Data(text.utf8), piece: 1_100)
      #expect(found.map(\.0) == (0..<40).map { $0 * line.utf8.count + 101 }, "\(filler)")
    }
  }

  /// Texts of random lines mixing ASCII words, accented and upper-case letters, curly quotes,
  /// tabs, runs of spaces and both line ends, in UTF-8 and Latin-1: the scanner (ASCII
  /// stretches unfolded, the rest folded in small pieces) finds exactly the matches that
  /// folding the whole text finds, at the same offsets.
  @Test func findsWhatFoldingTheWholeTextFinds() throws {
    var generator = SystemRandomNumberGenerator()
    let pieces = [
      "the", "The", "THE", "thé", "theme", "them", " ", "  ", "\t", " \t ", "Être", "etre",
      "e\u{301}tre", "’", "don't", "don’t", "word", "WORD", "wórd", "x", "ne pas", "ne  pas",
      "Ne\tPAS", "œuvre", "Zéphyrine", "zephyrine", ",", ".", "\u{A0}", "heloise", "HeLoIsE",
      "Héloïse", "hel", "lois",
    ]
    let needles = [
      "the", "them", "etre", "don't", "ne pas", "word", "œuvre", "zephyrine", "e", "t", "x the",
      // Found by their rarest two letters, not their first and last.
      "heloise", "theme word",
    ]
    for round in 0..<60 {
      var lines: [String] = []
      for _ in 0..<Int.random(in: 1...40, using: &generator) {
        let words = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
          pieces.randomElement(using: &generator)!
        }
        lines.append(words.joined(separator: Bool.random(using: &generator) ? "" : " "))
      }
      let ending = ["\n", "\r\n", "\r"].randomElement(using: &generator)!
      let string = lines.joined(separator: ending) + (Bool.random(using: &generator) ? ending : "")
      let latin1 = round % 4 == 3
      let text: Data
      if latin1, let encoded = string.data(using: .windowsCP1252) {
        text = encoded
      } else {
        text = Data(string.utf8)
      }
      for words in needles {
        let found = try Self.matches(words, in: text, piece: 64).map(\.0)
        let expected = Self.reference(words, in: text).map(\.lowerBound)
        #expect(found == expected, "\(words) in \(string.debugDescription)")
      }
    }
  }

  /// The search's choice of encoding is the reader's, on every kind of start: ASCII, UTF-8,
  /// Latin-1, bytes Windows-1252 does not define, sequences cut short, and a character cut by
  /// the end of the 4 MiB sample.
  @Test func theEncodingIsTheReaders() {
    var generator = SystemRandomNumberGenerator()
    let pieces: [[UInt8]] = [
      Array("plain text, ".utf8), Array("é".utf8), Array("“".utf8), Array("🙂".utf8), [0xE9],
      [0xE8, 0x20], [0x81], [0xC3], [0xE2, 0x80], [0xF0, 0x9F], [0x80], [0xFF], Array("\r\n".utf8),
    ]
    func check(_ bytes: [UInt8], _ what: String) {
      bytes.withUnsafeBufferPointer { buffer in
        #expect(SearchedText.encoding(of: buffer) == TextBytes.encoding(of: buffer), "\(what)")
      }
    }
    for round in 0..<400 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...60, using: &generator) {
        if Bool.random(using: &generator) {
          bytes += Array(
            repeating: UInt8(ascii: "a"), count: Int.random(in: 0...70, using: &generator))
        }
        bytes += pieces.randomElement(using: &generator)!
      }
      check(bytes, "round \(round): \(bytes.prefix(64))")
    }
    // A character cut by the end of the sample, and just inside it.
    let sample = TextBytes.encodingSample
    for (lead, at) in [
      ([UInt8]([0xC3, 0xA9]), sample - 1), ([0xE2, 0x80, 0x9C], sample - 2),
      ([0xE9], sample - 1), ([0xC3, 0xA9], sample - 2),
    ] {
      var bytes = [UInt8](repeating: 0x61, count: sample + 8)
      bytes.replaceSubrange(at..<at + lead.count, with: lead)
      check(bytes, "\(lead) at \(at)")
      check(Array(bytes.prefix(at + lead.count)), "\(lead) at \(at), the end of the file")
    }
  }

  /// Past the bytes the choice of encoding notes (more than 4,096 accents, and a text longer
  /// than the 4 MiB it looks at), the scanner finds the bytes past ASCII itself, and still
  /// finds exactly what folding the whole text finds.
  @Test func findsWhatFoldingFindsPastTheNotedBytes() throws {
    let lines = [
      "plain words and the word here", "été, Être et l'ÉTÉ", "nothing at all in this one",
      "The WORD, then the word", "café  word\tplain", "word",
    ]
    var text = ""
    var index = 0
    while text.utf8.count < TextBytes.encodingSample + 200_000 {
      text += lines[index % lines.count] + (index % 3 == 0 ? "\r\n" : "\n")
      index += 1
    }
    let data = Data(text.utf8)
    #expect(text.unicodeScalars.filter { !$0.isASCII }.count > SearchedText.highBytesKept)
    for words in ["word", "ete", "the word", "cafe word"] {
      let found = try Self.matches(words, in: data).map(\.0)
      #expect(found == Self.reference(words, in: data).map(\.lowerBound), "\(words)")
      #expect(found.last ?? 0 > TextBytes.encodingSample, "\(words)")
    }
  }

  /// The scan for the next byte past ASCII (64 bytes, then 8, then one at a time) finds the
  /// first one in the range, or the range's end, wherever the range starts and ends and
  /// wherever the byte stands: checked against a byte-by-byte reading.
  @Test func theNextBytePastASCIIIsFoundAtEveryAlignment() {
    let size = 200
    var checked = 0
    var faults = 0
    for high in [nil] + (0..<size).map({ Optional($0) }) {
      var bytes = [UInt8](repeating: 0x61, count: size)
      if let high { bytes[high] = high % 2 == 0 ? 0x80 : 0xFF }
      // A second one further on, which is never the answer while the first is in range.
      if let high, high + 70 < size { bytes[high + 70] = 0xC3 }
      bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        for from in stride(from: 0, through: size, by: 3) {
          for to in stride(from: from, through: size, by: 5) {
            let expected = (from..<to).first { bytes[$0] >= 0x80 } ?? to
            if TextScanner.nextHighByte(base, from: from, to: to) != expected { faults += 1 }
            checked += 1
          }
        }
      }
    }
    #expect(checked > 100_000)
    #expect(faults == 0)
  }
}
