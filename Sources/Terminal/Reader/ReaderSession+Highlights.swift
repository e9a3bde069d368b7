import Catalog
import Foundation

/// Highlights in the reader: `hl [note]` (the current match) and `hl /FROM/ /TO/ [note]`.
extension ReaderSession {
  /// Highlights `span` with `note`, keeping the passage's words (capped) and its chapter, so
  /// `gutenberg notes` lists it without the file.
  func highlight(_ span: HighlightSpan, note: String) async {
    guard let range = highlighted(span) else { return }
    let quote = Self.collapsed(pager.text.bytes.string(range))
    let chapter = chapter(at: range.lowerBound)
    do {
      let added = try await service.addBookmark(
        id: id, byteOffset: range.lowerBound, quote: quote, note: note,
        endOffset: range.upperBound, chapter: chapter)
      lastMark = added.key
      let number = (try await service.bookmarks(id: id)).firstIndex { $0.key == added.key } ?? 0
      output.print(
        "highlighted b\(number + 1)"
          + (chapter.map { " in \(DisplayWidth.truncate(Sanitizer.sanitize($0), toCells: 30))" }
            ?? "") + ": \(BookmarkText.shortQuote(quote))")
    } catch {
      output.printError("error: highlight not saved: \(error.description)")
    }
  }

  /// The bytes `span` covers now, or nil after one line saying why there are none.
  private func highlighted(_ span: HighlightSpan) -> Range<Int>? {
    switch span {
    case .match:
      guard let match = pager.match, !match.isEmpty else {
        output.printError(
          "error: no match to highlight: search with /word first, or hl /FROM/ /TO/ [note]")
        return nil
      }
      return match
    case .between(let from, let to):
      let visible = pager.visible
      guard let start = pager.text.find(from, in: pager.top..<visible.upperBound) else {
        output.printError("error: not found from this page on: \(Sanitizer.sanitize(from))")
        return nil
      }
      guard let end = pager.text.find(to, in: start.upperBound..<visible.upperBound) else {
        output.printError(
          "error: not found after \(BookmarkText.shortQuote(from)): \(Sanitizer.sanitize(to))")
        return nil
      }
      return start.lowerBound..<end.upperBound
    }
  }

  /// The heading of the chapter holding `offset`, by the table of contents (worked out here
  /// if it is not yet); nil before the first heading or in a book without any.
  func chapter(at offset: Int) -> String? {
    let table = contents ?? TableOfContents(pager.text, in: pager.visible)
    contents = table
    return table.entries.last { $0.offset <= offset }?.title
  }

  /// `text` with every run of whitespace one space, trimmed: a passage as one line.
  static func collapsed(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
