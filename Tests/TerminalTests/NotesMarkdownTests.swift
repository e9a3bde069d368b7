import Catalog
import Foundation
import Testing

@testable import Terminal

/// `gutenberg notes`' renderings of a book's notes (Markdown, JSON, lines) and `hl` as the
/// reader parses it.
@Suite struct NotesMarkdownTests {
  static func note(
    _ number: Int, quote: String, note: String, chapter: String?, end: Int? = 130
  ) -> BookNotes.Note {
    BookNotes.Note(
      number: number,
      bookmark: Bookmark(
        key: "k\(number)", bookID: 84, byteOffset: 100 * number, quote: quote, note: note,
        createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0),
        endOffset: end, chapter: chapter),
      chapter: chapter)
  }

  static let book = BookNotes(
    id: 84, title: "Frankenstein; Or, The Modern Prometheus",
    authors: ["Shelley, Mary Wollstonecraft"],
    notes: [
      note(1, quote: "You will rejoice to hear", note: "the first letter", chapter: "Letter 1"),
      note(2, quote: "a place", note: "", chapter: nil, end: nil),
    ])

  @Test func theDocumentHoldsTheTitleTheQuoteTheNoteAndTheChapter() {
    let markdown = Self.book.markdown()
    #expect(
      markdown.hasPrefix(
        "# Frankenstein; Or, The Modern Prometheus\n\nby Shelley, Mary Wollstonecraft\n\n"))
    #expect(
      markdown.contains(
        "\n> You will rejoice to hear\n\nthe first letter\n\n— *Letter 1* · `gutenberg read 84 --at 100`\n"
      ))
    #expect(
      markdown.contains("\n> a place\n\n— `gutenberg read 84 --at 200`\n"), "no note, no chapter")
  }

  @Test func markdownInTheTextIsEscapedAndControlCharactersAreGone() {
    let hostile = BookNotes(
      id: 7, title: "# Not a heading", authors: [],
      notes: [
        Self.note(
          1, quote: "> nested\u{1B}[31m red *bold* <b>", note: "# heading\u{07}\nline two",
          chapter: "1. Not a list")
      ])
    let markdown = hostile.markdown()
    #expect(!markdown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(markdown)")
    #expect(markdown.hasPrefix("# \\# Not a heading\n\n"), "\(markdown)")
    #expect(markdown.contains("\n> \\> nested red \\*bold\\* \\<b\\>\n"), "\(markdown)")
    #expect(markdown.contains("\n\\# heading line two\n"), "\(markdown)")
    #expect(markdown.contains("— *1\\. Not a list*"), "\(markdown)")
    #expect(BookNotes.escaped("- item") == "\\- item")
    #expect(BookNotes.escaped("a > b & c") == "a \\> b \\& c")
    #expect(BookNotes.escaped("12) twelve") == "12\\) twelve")
  }

  @Test func aBookNobodyKnowsIsNamedByItsNumber() {
    let unknown = BookNotes(id: 5, title: "", authors: [], notes: [])
    #expect(unknown.markdown() == "# book 5\n\n")
  }

  @Test func theJSONIsTheSameAsData() throws {
    let data = try JSONSerialization.data(withJSONObject: Self.book.json)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["title"] as? String == "Frankenstein; Or, The Modern Prometheus")
    let notes = try #require(object["notes"] as? [[String: Any]])
    #expect(notes.count == 2)
    #expect(notes[0]["kind"] as? String == "highlight" && notes[1]["kind"] as? String == "bookmark")
    #expect(notes[0]["chapter"] as? String == "Letter 1" && notes[1]["chapter"] == nil)
    #expect(notes[0]["end_offset"] as? Int == 130 && notes[1]["end_offset"] == nil)
    #expect(notes[0]["read"] as? String == "gutenberg read 84 --at 100")
  }

  @Test func tsvHasOneLinePerNote() {
    let lines = Self.book.tsvLines()
    #expect(lines.count == 2)
    #expect(
      lines[0].split(separator: "\t", omittingEmptySubsequences: false).map(String.init) == [
        "84", "b1", "highlight", "100", "130", "Letter 1", "the first letter",
        "You will rejoice to hear", "gutenberg read 84 --at 100",
      ])
  }

  @Test func hlHighlightsTheMatchOrAPassageBetweenTwoSearches() {
    #expect(PagerCommand.parse("hl", searching: true) == .highlight(.match, note: ""))
    #expect(
      PagerCommand.parse("hl  a good  line ", searching: false)
        == .highlight(.match, note: "a good  line"))
    #expect(
      PagerCommand.parse("highlight /It was/ /November./ the night", searching: false)
        == .highlight(.between("It was", "November."), note: "the night"))
    #expect(
      PagerCommand.parse("hl /from//to/", searching: false)
        == .highlight(.between("from", "to"), note: ""))
    #expect(PagerCommand.parse("hl /only one/", searching: false) == .unknown("hl /only one/"))
    #expect(PagerCommand.parse("hl // /to/", searching: false) == .unknown("hl // /to/"))
    #expect(PagerCommand.parse("hlx", searching: false) == .unknown("hlx"))
  }
}
