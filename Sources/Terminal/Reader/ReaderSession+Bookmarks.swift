import Catalog
import Foundation

/// Bookmarks in the reader: `b [note]`, `b -N`, `bookmarks` and `g bN`.
extension ReaderSession {
  /// `b [note]`: bookmarks the first row shown. The same place again only changes the note.
  func mark(note: String) async {
    let quote = PlaceQuote.quote(in: pager.text, at: pager.top)
    do {
      let existing = try await service.marks.bookmarks(id: id)
      if let index = existing.firstIndex(where: { $0.byteOffset == pager.top && !$0.isHighlight }) {
        var bookmark = existing[index]
        guard !note.isEmpty, note != bookmark.note else {
          output.print("already bookmarked here: b\(index + 1)")
          return
        }
        bookmark.note = note
        bookmark.updatedAt = Date()
        try await service.marks.save(bookmark)
        lastMark = bookmark.key
        output.print("b\(index + 1): note changed")
        return
      }
      let added = try await service.marks.add(
        id: id, byteOffset: pager.top, quote: quote, note: note, chapter: chapter(at: pager.top))
      lastMark = added.key
      let number = try await service.marks.number(of: added) ?? 1
      output.print(
        "bookmarked b\(number) at \(pager.percent)%: \(BookmarkText.shortQuote(quote))")
    } catch {
      output.printError("error: bookmark not saved: \(error.description)")
    }
  }

  /// `b -N`: removes bookmark N (the others are numbered again, in reading order).
  func unmark(_ number: Int) async {
    do {
      let bookmarks = try await service.marks.bookmarks(id: id)
      guard bookmarks.indices.contains(number - 1) else {
        return output.printError(
          bookmarks.isEmpty
            ? "error: this book has no bookmarks"
            : "error: there is no bookmark b\(number) (bookmarks are b1–b\(bookmarks.count))")
      }
      _ = try await service.marks.remove(key: bookmarks[number - 1].key)
      output.print(
        "removed b\(number): \(BookmarkText.shortQuote(bookmarks[number - 1].quote))")
    } catch {
      output.printError("error: bookmark not removed: \(error.description)")
    }
  }

  /// `bookmarks`: this book's bookmarks, each where it is in this file now (a window at a time
  /// when they do not fit).
  func listBookmarks() async {
    let bookmarks: [Bookmark]
    do {
      bookmarks = try await service.marks.bookmarks(id: id)
    } catch {
      return output.printError("error: \(error.description)")
    }
    guard !bookmarks.isEmpty else {
      return output.print(output.style.dim("no bookmarks in this book (b [note] adds one)"))
    }
    var lines: [String] = []
    for (index, bookmark) in bookmarks.enumerated() {
      let place: String
      switch PlaceQuote.locate(bookmark.quote, savedAt: bookmark.byteOffset, in: pager.text) {
      case .same(let offset), .moved(let offset): place = "\(percent(of: offset))%"
      case .lost: place = "not in this file"
      }
      lines.append(BookmarkText.line(index + 1, bookmark, place: place, width: pager.width))
    }
    showList(lines, heading: 0)
  }

  /// `g bN`: goes to bookmark N, found again by its words if the file changed; a bookmark
  /// whose words are not in this file does not move the reader.
  func goTo(bookmark number: Int) async {
    let bookmarks: [Bookmark]
    do {
      bookmarks = try await service.marks.bookmarks(id: id)
    } catch {
      return output.printError("error: \(error.description)")
    }
    guard bookmarks.indices.contains(number - 1) else {
      return output.printError(
        bookmarks.isEmpty
          ? "error: this book has no bookmarks (b [note] adds one)"
          : "error: there is no bookmark b\(number) (bookmarks are b1–b\(bookmarks.count))")
    }
    let bookmark = bookmarks[number - 1]
    switch PlaceQuote.locate(bookmark.quote, savedAt: bookmark.byteOffset, in: pager.text) {
    case .same(let offset):
      pager.go(offset: offset)
    case .moved(let offset):
      output.printError("note: this file changed since b\(number) was made; found it again")
      pager.go(offset: offset)
    case .lost:
      return output.printError(
        "error: b\(number)'s place (\(BookmarkText.shortQuote(bookmark.quote))) is not in this "
          + "file (it changed); not moved")
    }
    show()
  }

  /// How far through the visible text `offset` is, 0...100.
  func percent(of offset: Int) -> Int {
    let visible = pager.visible
    guard visible.count > 0 else { return 100 }
    return min(100, max(0, (offset - visible.lowerBound) * 100 / visible.count))
  }
}
