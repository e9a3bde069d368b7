import Foundation
import Testing

@testable import Terminal

/// The words kept with a place, and finding the place again by them.
@Suite struct PlaceQuoteTests {
  @Test func theQuoteCollapsesLineBreaksAndEndsAtAWord() {
    let text = BookText(
      data: Data("Call me\r\n  Ishmael. Some years ago, never mind how long".utf8))
    let quote = PlaceQuote.quote(in: text, at: 0)
    #expect(quote.hasPrefix("Call me Ishmael. Some years ago"))
    #expect(!quote.contains("\r") && !quote.contains("  "))
  }

  @Test func aPlaceIsFoundWhereverTheTextMovedAndNeverGuessed() {
    let words = (1...200).map { "word\($0)" }.joined(separator: " ")
    let before = BookText(data: Data(("Header\n\n" + words).utf8))
    let offset = 8 + words.utf8.count / 2
    let quote = PlaceQuote.quote(in: before, at: offset)
    #expect(PlaceQuote.locate(quote, savedAt: offset, in: before) == .same(offset))

    // Re-issued with a longer header and re-wrapped: the same words, elsewhere.
    let rewrapped = words.replacingOccurrences(of: "0 word", with: "0\r\nword")
    let after = BookText(data: Data(("A much longer header\n\n\n" + rewrapped).utf8))
    guard case .moved(let found) = PlaceQuote.locate(quote, savedAt: offset, in: after) else {
      Issue.record("not found in the re-issued text")
      return
    }
    #expect(PlaceQuote.quote(in: after, at: found) == quote)

    let other = BookText(data: Data(words.replacingOccurrences(of: "word", with: "mot").utf8))
    #expect(PlaceQuote.locate(quote, savedAt: offset, in: other) == .lost)
    // A position saved before quotes were kept cannot be checked: it opens where it was.
    #expect(PlaceQuote.locate(nil, savedAt: 5, in: other) == .same(5))
  }

  @Test func readerCommandsForBookmarks() {
    #expect(PagerCommand.parse("b", searching: false) == .mark(""))
    #expect(
      PagerCommand.parse("b  Read  this again ", searching: false) == .mark("Read  this again"))
    #expect(PagerCommand.parse("bookmarks", searching: false) == .bookmarks)
    #expect(PagerCommand.parse("g b3", searching: false) == .bookmark(3))
    #expect(PagerCommand.parse("g b0", searching: false) == .unknown("g b0"))
    #expect(PagerCommand.parse("p", searching: false) == .previous)
    #expect(PagerCommand.parse("b -2", searching: false) == .unmark(2))
    #expect(PagerCommand.parse("b -two", searching: false) == .mark("-two"))
  }
}
