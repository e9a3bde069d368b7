import Foundation
import Testing

@testable import Terminal

/// The time left on the reader's status line: the rest of the chapter (once the table of
/// contents is known) and of the book, at 250 words a minute or `GUTENBERG_WPM`.
@Suite struct ReadingTimeTests {
  /// Two chapters of 12,500 words each (`wordy ` is 6 bytes a word).
  static func book() -> BookText {
    let chapter = String(repeating: "wordy ", count: 12_500)
    let body = "CHAPTER I.\n\n" + chapter + "\n\nCHAPTER II.\n\n" + chapter + "\n"
    return BookText(
      data: Data(
        ("*** START OF THE PROJECT GUTENBERG EBOOK T ***\n\n" + body
          + "\n*** END OF THE PROJECT GUTENBERG EBOOK T ***\n").utf8))
  }

  @Test func theChapterAndTheBookLeftAtTheReadingSpeed() {
    let text = Self.book()
    #expect(abs(text.bytesPerWord - 6) < 0.01, "\(text.bytesPerWord)")
    var pager = Pager(text: text, title: "T", width: 100, height: 20)
    // 25,000 words at 250 a minute: 100 minutes (a few more for the headings' bytes).
    #expect(pager.timeLeft == ["1 h 41 min in book"])
    pager.chapterStarts = TableOfContents(text, in: text.bodyBytes).entries.map(\.offset)
    #expect(pager.chapterStarts.count == 2)
    #expect(pager.timeLeft == ["51 min left in chapter", "1 h 41 min in book"])
    #expect(pager.statusLine.hasSuffix(" · 51 min left in chapter · 1 h 41 min in book · 0%"))
    pager.wordsPerMinute = 500
    #expect(pager.timeLeft == ["26 min left in chapter", "51 min in book"])
    pager.go(offset: pager.chapterStarts[1])
    #expect(pager.timeLeft == ["26 min left in chapter", "26 min in book"])
  }

  /// A narrow window keeps the title whole: the time goes first, the book's before the
  /// chapter's.
  @Test func theTitleKeepsItsRoom() {
    var pager = Pager(
      text: Self.book(), title: "A Title Of Thirty-Two Characters", width: 80, height: 20)
    pager.chapterStarts = [0]
    #expect(pager.statusLine.hasPrefix("A Title Of Thirty-Two Characters · line 1 of "))
    #expect(pager.statusLine.contains(" in book") || pager.statusLine.contains("in chapter"))
    #expect(DisplayWidth.cells(pager.statusLine) <= 80)
    pager.width = 52
    #expect(pager.statusLine.hasPrefix("A Title Of Thirty-Two Characters · line 1 of "))
    #expect(!pager.statusLine.contains(" min "))
  }
}
