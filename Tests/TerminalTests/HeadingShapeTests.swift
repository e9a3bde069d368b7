import Catalog
import Foundation
import Testing

@testable import Terminal

/// Headings for `toc` (and `library search`'s chapter) are recognised by their shape: a line of
/// their own, set off by blank lines, numbered or in capitals; never a paragraph that begins
/// with the word "Chapter".
@Suite struct HeadingShapeTests {
  /// A PG-style text with `body` between the markers (CRLF line ends, as PG's files have).
  static func book(_ body: [String]) -> BookText {
    let text =
      "The Project Gutenberg eBook of Test\r\n\r\n*** START OF THE PROJECT GUTENBERG EBOOK TEST ***"
      + "\r\n\r\n" + body.joined(separator: "\r\n")
      + "\r\n\r\n*** END OF THE PROJECT GUTENBERG EBOOK TEST ***\r\nLicence.\r\n"
    return BookText(data: Data(text.utf8))
  }

  static let prose = [
    "CHAPTER I.", "", "THE LIBRARY.", "",
    "She went up to the library after dinner, as she did every evening, and took",
    "down the book her aunt had given her.", "",
    "Chapter five was the one she liked best, and she read it again and again",
    "until the candle burned down and the house was quiet.", "",
    "Chapter Two was dull.", "",
    "CHAPTER II. The Storm at Sea", "",
    "The wind rose in the night and the ship laboured in the swell until dawn,",
    "when the captain came below.", "",
    "Chapter III", "The morning was grey and still, and nobody spoke of the storm.", "",
    "CHAPTER IV", "", "THE END OF IT", "",
    "Book the last of her aunt's gifts lay unread on the table by the door.",
  ]

  @Test func aParagraphThatBeginsWithChapterIsNoHeading() {
    let text = Self.book(Self.prose)
    let toc = TableOfContents(text, in: text.bodyBytes)
    #expect(
      toc.entries.map(\.title) == [
        "CHAPTER I.", "CHAPTER II. The Storm at Sea", "Chapter III", "CHAPTER IV",
      ])
  }

  @Test func headingShapes() {
    #expect(TableOfContents.isHeading("CHAPTER XII. The Last of the Spirits"))
    #expect(TableOfContents.isHeading("CHAPTER I THE STORM"))
    #expect(TableOfContents.isHeading("Chapter 3: What She Saw"))
    #expect(!TableOfContents.isHeading("Chapter five was the one she liked best, and she read"))
    #expect(!TableOfContents.isHeading("Chapter 3 describes the voyage and what followed it"))
    #expect(!TableOfContents.isHeading("chapter five"))
    #expect(TableOfContents.isBare("Letter 2"))
    #expect(!TableOfContents.isBare("Letter 2 was long"))
  }

  /// The book's own CONTENTS table: an entry is found again only as a line of its own, not in
  /// a sentence that begins with its words.
  @Test func aContentsEntryIsNotFoundInASentence() {
    let text = Self.book([
      "CONTENTS", "", "Chapter V", "Chapter VI", "", "",
      "Chapter V was the one she liked best, and she read it again and again", "", "Chapter V",
      "", "The real fifth chapter begins here and goes on for a while.", "", "Chapter VI", "",
      "And the sixth.",
    ])
    let toc = TableOfContents(text, in: text.bodyBytes)
    #expect(toc.entries.map(\.title) == ["Chapter V", "Chapter VI"])
    let lines = toc.entries.map { text.bytes.string($0.offset..<text.lineEnd(from: $0.offset)) }
    #expect(lines == ["Chapter V", "Chapter VI"])
  }

  /// `library search` names the chapter a match is in from the same headings.
  @Test func librarySearchNamesTheRightChapter() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-headings-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("1-test.txt")
    let body = Self.prose.joined(separator: "\r\n")
    try Data(
      ("*** START OF THE PROJECT GUTENBERG EBOOK TEST ***\r\n\r\n" + body
        + "\r\n\r\n*** END OF THE PROJECT GUTENBERG EBOOK TEST ***\r\n").utf8
    ).write(to: file)
    let entry = LibraryEntry(
      id: 1, format: "txt", title: "Test", path: file.path, size: 1, fetchedAt: Date(),
      validator: nil, url: "https://www.gutenberg.org/ebooks/1.txt.utf-8")
    var chapters: [String?] = []
    LibrarySearch(words: "candle", cells: 80).run([entry]) { event in
      if case .match(let match) = event { chapters.append(match.chapter) }
      return true
    }
    #expect(chapters == ["CHAPTER I."])
  }
}
