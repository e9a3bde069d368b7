import Catalog
import Foundation

/// How bookmarks read in lines: `b2  41%  “words…” — note`, numbered within their book.
enum BookmarkText {
  /// Each bookmark with its number within its book (b1 first).
  static func numbered(_ bookmarks: [Bookmark]) -> [(Int, Bookmark)] {
    var result: [(Int, Bookmark)] = []
    var number = 0
    var book: Int?
    for bookmark in bookmarks {
      number = bookmark.bookID == book ? number + 1 : 1
      book = bookmark.bookID
      result.append((number, bookmark))
    }
    return result
  }

  /// `b2  41%  “words…” — note`, fitted to `width`.
  static func line(_ number: Int, _ bookmark: Bookmark, place: String, width: Int) -> String {
    var line = "b\(number)  \(place)  \(shortQuote(bookmark.quote))"
    let note = Sanitizer.sanitize(bookmark.note)
    if !note.isEmpty { line += " — \(note)" }
    return DisplayWidth.truncate(line, toCells: max(20, width))
  }

  /// The first words of a quote, sanitised, in quotation marks.
  static func shortQuote(_ quote: String?) -> String {
    "“" + DisplayWidth.truncate(Sanitizer.sanitize(quote ?? ""), toCells: 40) + "”"
  }

  /// `2026-11-21`.
  static func day(_ date: Date) -> String {
    String(date.formatted(.iso8601).prefix(10))
  }
}
