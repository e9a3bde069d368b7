import Foundation
import Gutendex
import Testing

@testable import Terminal

@Suite struct SanitizerTests {
  @Test func removesTerminalEscapeSequences() {
    #expect(Sanitizer.sanitize("Evil\u{1B}]0;owned\u{07}\u{1B}[2J") == "Evil")
    #expect(Sanitizer.sanitize("a\u{1B}[1;31mred\u{1B}[0m b") == "ared b")
    #expect(Sanitizer.sanitize("x\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\") == "xlink")
    #expect(Sanitizer.sanitize("\u{1B}(Bplain\u{1B}c") == "plain")
    #expect(Sanitizer.sanitize("title\u{1B}") == "title")
    #expect(Sanitizer.sanitize("rest\u{1B}]2;never terminated") == "rest")
    #expect(Sanitizer.sanitize("a\u{1B}P1$r\u{1B}\\b") == "ab")
  }

  @Test func removesEightBitControlsAndTheirPayloads() {
    #expect(Sanitizer.sanitize("a\u{9B}2Jb") == "ab")
    #expect(Sanitizer.sanitize("a\u{9D}0;title\u{9C}b") == "ab")
    #expect(Sanitizer.sanitize("a\u{9D}0;title\u{07}b") == "ab")
    // A lone introducer (mis-decoded Windows-1252) does not swallow the text after it.
    #expect(Sanitizer.sanitize("Z\u{9E}ivot") == "Zivot")
    #expect(Sanitizer.sanitize("a\u{85}b") == "a b")
    #expect(Sanitizer.sanitize("a\u{80}\u{9F}b") == "ab")
  }

  /// Each ASCII character between two letters, against what Unicode says of it: white space
  /// becomes one space, a control (or DEL) goes, anything else stays. (ASCII is classified
  /// without Unicode's tables; this holds it to their answers. ESC starts a sequence.)
  @Test func everyASCIICharacterIsClassifiedAsUnicodeDoes() throws {
    for value in UInt32(0)..<0x80 where value != 0x1B {
      let scalar = try #require(Unicode.Scalar(value))
      let expected =
        scalar.properties.isWhitespace
        ? "a b" : (value < 0x20 || value == 0x7F) ? "ab" : "a\(Character(scalar))b"
      #expect(Sanitizer.sanitize("a\(Character(scalar))b") == expected, "U+\(value)")
    }
  }

  @Test func turnsTabsAndLineBreaksIntoSingleSpaces() {
    #expect(Sanitizer.sanitize("  Pride\tand\n\nPrejudice \r\n") == "Pride and Prejudice")
    #expect(Sanitizer.sanitize("a\u{2028}b\u{00A0}\u{00A0}c") == "a b c")
    #expect(Sanitizer.sanitize("bell\u{07}s\u{00}\u{7F}") == "bells")
    #expect(Sanitizer.sanitize(" \t\n ") == "")
    #expect(Sanitizer.sanitize("") == "")
  }

  @Test func removesBidiControlsAndInvisibles() {
    let hostile =
      "abc\u{202E}fed\u{202C} \u{2066}x\u{2069}\u{200E}\u{200F}\u{061C}\u{FEFF}\u{200B}\u{2060}"
    #expect(Sanitizer.sanitize(hostile) == "abcfed x")
    #expect(Sanitizer.sanitize("soft\u{AD}hyphen") == "softhyphen")
  }

  @Test func keepsJoinersAndOrdinaryText() {
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
    #expect(Sanitizer.sanitize(family) == family)
    #expect(Sanitizer.sanitize("می\u{200C}خواهم") == "می\u{200C}خواهم")
    #expect(Sanitizer.sanitize("Война и мир") == "Война и мир")
    #expect(Sanitizer.sanitize("红楼梦") == "红楼梦")
    #expect(Sanitizer.sanitize("Cafe\u{301}") == "Cafe\u{301}")
    #expect(Sanitizer.sanitize("Plain ASCII title") == "Plain ASCII title")
  }

  @Test func cleansRealControlCharactersInTitles() throws {
    let scientific = try Fixtures.book(43282, in: "en__page_775")
    #expect(scientific.title.unicodeScalars.contains("\u{97}"))
    #expect(
      Sanitizer.sanitize(scientific.title)
        == "Scientific American, Vol. XXXIX.No. 6. [New Series.], August 10, 1878")
    let potowski = try Fixtures.book(58366, in: "fr__page_102")
    #expect(potowski.title.unicodeScalars.contains("\u{9C}"))
    #expect(Sanitizer.sanitize(potowski.title).contains("Un roman de coeur par Marat"))
  }

  @Test func cleansRealInvisibleCharacters() throws {
    let hungarian = try Fixtures.book(61680, in: "hu__page_10")
    #expect(Sanitizer.sanitize(hungarian.title) == "A magyar előidőkből; Egy asszonyi hajszál")
    let monsoreau = try Fixtures.book(9637, in: "fr__page_9")
    #expect(Sanitizer.sanitize(monsoreau.title) == "La dame de Monsoreau — Tome 1.")
  }

  @Test(arguments: [
    ("en__page_536", 43669, "Bernard, W. D. (William Dallas)"),
    ("en__page_512", 43365, "Hay, Gilbert, Sir, active 1456"),
    ("de__page_17", 58941, "Capsius, M."),
  ])
  func cleansRealBidiMarksInNames(file: String, id: Int, expected: String) throws {
    let book = try Fixtures.book(id, in: file)
    let names = book.authors.map(\.name) + (book.translators ?? []).map(\.name)
    #expect(names.contains { $0.unicodeScalars.contains { $0 == "\u{200F}" } })
    #expect(names.map(Sanitizer.sanitize).contains(expected))
  }

  @Test func everyRecordedStringComesOutClean() throws {
    for book in try Fixtures.allBooks() {
      var texts = [book.title] + book.subjects + book.bookshelves + (book.summaries ?? [])
      texts += (book.authors + (book.translators ?? []) + (book.editors ?? [])).map(\.name)
      for text in texts {
        let clean = Sanitizer.sanitize(text)
        #expect(
          !RenderChecks.hasForbiddenScalar(clean), "book \(book.id): \(clean.debugDescription)")
        #expect(Sanitizer.sanitize(clean) == clean, "not idempotent for book \(book.id)")
      }
    }
  }
}
