import Catalog
import Foundation

extension LibraryUpdateRunner {
  /// After book `entry`'s file was replaced: its bookmarks are kept as they are (byte offsets:
  /// the reader finds each one's words again when it opens the book, and says so); a
  /// highlight whose words are found again in a new plain text is moved to them, one that is
  /// not is kept as it was. An EPUB's offsets are in the text it is turned into, which the
  /// reader works out; its bookmarks are counted as possibly moved.
  func keepBookmarks(of entry: LibraryEntry) async -> Bookmarks {
    guard let marks = try? await service.marks.bookmarks(id: entry.id), !marks.isEmpty else {
      return Bookmarks()
    }
    var result = Bookmarks()
    let text = entry.format == "txt" ? try? BookText(contentsOfFile: entry.path) : nil
    for mark in marks {
      guard let text, let end = mark.endOffset, !mark.quote.isEmpty else {
        result.mayHaveMoved += 1
        continue
      }
      switch PlaceQuote.locate(mark.quote, savedAt: mark.byteOffset, in: text) {
      case .same:
        // Its words are still where it starts; its end goes with them.
        continue
      case .moved(let start):
        var moved = mark
        moved.byteOffset = start
        // A quote cut at its limit ends before the passage does: the length is kept then.
        let quoteEnd = PlaceQuote.end(of: mark.quote, at: start, in: text) ?? start
        moved.endOffset =
          mark.quote.utf8.count >= Bookmark.quoteLimit - 4
          ? start + max(0, end - mark.byteOffset) : quoteEnd
        if (try? await service.marks.save(moved)) != nil {
          result.highlightsMoved += 1
        } else {
          result.mayHaveMoved += 1
        }
      case .lost:
        result.mayHaveMoved += 1
      }
    }
    return result
  }
}
