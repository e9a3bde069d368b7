import Catalog
import Foundation

/// Bookmarks and notes: `b [note]`, `bookmarks` and `g bN` in the reader, and
/// `gutenberg bookmarks [ID]`.
extension GutenbergApp {
  /// Where to open a book read before, and a note when its file changed since: the saved words
  /// found elsewhere, or not found (then the book opens at its start, never at a wrong place).
  static func resumePlace(_ saved: ReadingPosition?, in text: BookText) -> (Int?, String?) {
    guard let saved else { return (nil, nil) }
    let offset = saved.byteOffset ?? text.offset(ofLine: saved.line)
    switch PlaceQuote.locate(saved.quote, savedAt: offset, in: text) {
    case .same(let top):
      return (top, nil)
    case .moved(let top):
      return (top, "note: this file changed since you last read it; your place was found again")
    case .lost:
      return (
        nil,
        "note: this file changed since you last read it and your place (\(BookmarkText.shortQuote(saved.quote)))"
          + " is not in it; opening at the start (/ searches for words)"
      )
    }
  }

  /// `gutenberg bookmarks [ID]`: every bookmark (or one book's), as lines, TSV or JSON.
  package func bookmarksList(id: Int?, format: ListFormat) async -> ExitStatus {
    let bookmarks: [Bookmark]
    do {
      bookmarks = try await service.bookmarks(id: id)
    } catch {
      return fail(error)
    }
    let numbered = BookmarkText.numbered(bookmarks)
    switch format {
    case .json:
      let objects: [[String: Any]] = numbered.map { number, bookmark in
        [
          "id": bookmark.bookID, "bookmark": "b\(number)", "byte_offset": bookmark.byteOffset,
          "quote": bookmark.quote, "note": bookmark.note, "key": bookmark.key,
          "created_at": Self.iso8601(bookmark.createdAt),
          "updated_at": Self.iso8601(bookmark.updatedAt),
        ]
      }
      // JSONSerialization pretty-prints an empty array over three lines.
      output.print(objects.isEmpty ? "[]" : Self.json(objects as Any, empty: "[]"))
    case .automatic where !output.isTerminal:
      output.print(
        numbered.map { number, bookmark in
          [
            String(bookmark.bookID), "b\(number)", String(bookmark.byteOffset),
            Self.iso8601(bookmark.createdAt), TSVRenderer.field(bookmark.note),
            TSVRenderer.field(bookmark.quote),
          ].joined(separator: "\t")
        })
    case .automatic:
      guard !bookmarks.isEmpty else {
        output.print(
          id.map { "book \($0) has no bookmarks" } ?? "no bookmarks yet (b [note] in the reader)")
        return .ok
      }
      var lines: [String] = []
      var book: Int?
      for (number, bookmark) in numbered {
        if bookmark.bookID != book {
          book = bookmark.bookID
          let title = (try? await service.downloads(id: bookmark.bookID))?.first?.title
          lines.append(
            "\(bookmark.bookID)  " + shortTitle(title ?? "")
              + "  (gutenberg read \(bookmark.bookID), then g bN)")
        }
        lines.append(
          "  "
            + BookmarkText.line(
              number, bookmark, place: BookmarkText.day(bookmark.createdAt), width: output.width - 2
            ))
      }
      output.print(lines)
    }
    return .ok
  }
}
