import Catalog
import Foundation

/// `gutenberg bookmarks [ID]`: the bookmarks and notes made in the reader, every book's or one
/// book's, as lines, TSV or JSON.
package struct BookmarksRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Lists the bookmarks.
  package func run(id: Int?, format: ListFormat) async -> ExitStatus {
    let bookmarks: [Bookmark]
    do {
      bookmarks = try await service.marks.bookmarks(id: id)
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
          "created_at": JSONText.iso8601(bookmark.createdAt),
          "updated_at": JSONText.iso8601(bookmark.updatedAt),
        ]
      }
      // JSONSerialization pretty-prints an empty array over three lines.
      output.print(objects.isEmpty ? "[]" : JSONText.text(objects, empty: "[]"))
    case .automatic where !output.isTerminal:
      output.print(
        numbered.map { number, bookmark in
          [
            String(bookmark.bookID), "b\(number)", String(bookmark.byteOffset),
            JSONText.iso8601(bookmark.createdAt), TSVRenderer.field(bookmark.note),
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
            "\(bookmark.bookID)  "
              + DisplayWidth.truncate(Sanitizer.title(title ?? ""), toCells: 60)
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
