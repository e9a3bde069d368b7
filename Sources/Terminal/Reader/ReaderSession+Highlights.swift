import Catalog
import Foundation

/// Highlights in the reader: `hl [note]` (the current match) and `hl /FROM/ /TO/ [note]`.
extension ReaderSession {
  /// Highlights `span` with `note`, keeping the passage's words (capped) and its chapter, so
  /// `gutenberg notes` lists it without the file.
  func highlight(_ span: HighlightSpan, note: String) async {
    guard let range = span.range(in: pager, output: output) else { return }
    let quote = HighlightSpan.passage(range, in: pager.text)
    let chapter = chapter(at: range.lowerBound)
    do {
      let added = try await service.marks.add(
        id: id, byteOffset: range.lowerBound, quote: quote, note: note,
        endOffset: range.upperBound, chapter: chapter)
      lastMark = added.key
      let number = try await service.marks.number(of: added) ?? 1
      let place = chapter.map {
        " in " + DisplayWidth.truncate(Sanitizer.sanitize($0), toCells: 30)
      }
      output.print("highlighted b\(number)\(place ?? ""): \(BookmarkText.shortQuote(quote))")
    } catch {
      output.printError("error: highlight not saved: \(error.description)")
    }
  }

  /// The heading of the chapter holding `offset`, by the table of contents (worked out here
  /// if it is not yet).
  func chapter(at offset: Int) -> String? {
    let table = contents ?? TableOfContents(pager.text, in: pager.visible)
    contents = table
    return table.chapter(at: offset)
  }
}
