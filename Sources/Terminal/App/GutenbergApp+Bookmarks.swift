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
        "note: this file changed since you last read it and your place (\(shortQuote(saved.quote)))"
          + " is not in it; opening at the start (/ searches for words)"
      )
    }
  }

  /// `b [note]`: bookmarks the first row shown. The same place again only changes the note.
  func mark(_ reader: Pager, id: Int, note: String) async {
    let quote = PlaceQuote.quote(in: reader.text, at: reader.top)
    do {
      let existing = try await service.bookmarks(id: id)
      if let index = existing.firstIndex(where: { $0.byteOffset == reader.top }) {
        var bookmark = existing[index]
        guard !note.isEmpty, note != bookmark.note else {
          output.print("already bookmarked here: b\(index + 1)")
          return
        }
        bookmark.note = note
        bookmark.updatedAt = Date()
        try await service.saveBookmark(bookmark)
        output.print("b\(index + 1): note changed")
        return
      }
      let added = try await service.addBookmark(
        id: id, byteOffset: reader.top, quote: quote, note: note)
      let number = (try await service.bookmarks(id: id)).firstIndex { $0.key == added.key } ?? 0
      output.print("bookmarked b\(number + 1) at \(reader.percent)%: \(Self.shortQuote(quote))")
    } catch {
      output.printError("error: bookmark not saved: \(error.description)")
    }
  }

  /// `b -N`: removes bookmark N (the others are numbered again, in reading order).
  func unmark(_ number: Int, id: Int) async {
    do {
      let bookmarks = try await service.bookmarks(id: id)
      guard bookmarks.indices.contains(number - 1) else {
        return output.printError(
          bookmarks.isEmpty
            ? "error: this book has no bookmarks"
            : "error: there is no bookmark b\(number) (bookmarks are b1–b\(bookmarks.count))")
      }
      _ = try await service.removeBookmark(key: bookmarks[number - 1].key)
      output.print("removed b\(number): \(Self.shortQuote(bookmarks[number - 1].quote))")
    } catch {
      output.printError("error: bookmark not removed: \(error.description)")
    }
  }

  /// `bookmarks`: this book's bookmarks, each where it is in this file now.
  func listBookmarks(_ reader: Pager, id: Int) async {
    let bookmarks: [Bookmark]
    do {
      bookmarks = try await service.bookmarks(id: id)
    } catch {
      return output.printError("error: \(error.description)")
    }
    guard !bookmarks.isEmpty else {
      return output.print(output.style.dim("no bookmarks in this book (b [note] adds one)"))
    }
    for (index, bookmark) in bookmarks.enumerated() {
      let place: String
      switch PlaceQuote.locate(bookmark.quote, savedAt: bookmark.byteOffset, in: reader.text) {
      case .same(let offset), .moved(let offset): place = "\(percent(of: offset, in: reader))%"
      case .lost: place = "not in this file"
      }
      output.print(Self.bookmarkLine(index + 1, bookmark, place: place, width: reader.width))
    }
  }

  /// `g bN`: goes to bookmark N, found again by its words if the file changed; a bookmark
  /// whose words are not in this file does not move the reader.
  func goTo(bookmark number: Int, id: Int, _ reader: inout Pager) async {
    let bookmarks: [Bookmark]
    do {
      bookmarks = try await service.bookmarks(id: id)
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
    switch PlaceQuote.locate(bookmark.quote, savedAt: bookmark.byteOffset, in: reader.text) {
    case .same(let offset):
      reader.go(offset: offset)
    case .moved(let offset):
      output.printError("note: this file changed since b\(number) was made; found it again")
      reader.go(offset: offset)
    case .lost:
      return output.printError(
        "error: b\(number)'s place (\(Self.shortQuote(bookmark.quote))) is not in this file "
          + "(it changed); not moved")
    }
    output.print(reader.lines(width: reader.width, style: output.style))
  }

  /// `gutenberg bookmarks [ID]`: every bookmark (or one book's), as lines, TSV or JSON.
  package func bookmarksList(id: Int?, format: ListFormat) async -> ExitStatus {
    let bookmarks: [Bookmark]
    do {
      bookmarks = try await service.bookmarks(id: id)
    } catch {
      return fail(error)
    }
    let numbered = Self.numbered(bookmarks)
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
            + Self.bookmarkLine(
              number, bookmark, place: Self.iso8601Day(bookmark.createdAt), width: output.width - 2
            ))
      }
      output.print(lines)
    }
    return .ok
  }

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
  static func bookmarkLine(_ number: Int, _ bookmark: Bookmark, place: String, width: Int)
    -> String
  {
    var line = "b\(number)  \(place)  \(shortQuote(bookmark.quote))"
    let note = Sanitizer.sanitize(bookmark.note)
    if !note.isEmpty { line += " — \(note)" }
    return DisplayWidth.truncate(line, toCells: max(20, width))
  }

  /// The first words of a quote, sanitised, in quotation marks.
  static func shortQuote(_ quote: String?) -> String {
    "“" + DisplayWidth.truncate(Sanitizer.sanitize(quote ?? ""), toCells: 40) + "”"
  }

  static func iso8601Day(_ date: Date) -> String {
    String(iso8601(date).prefix(10))
  }

  /// How far through the visible text `offset` is, 0...100.
  func percent(of offset: Int, in reader: Pager) -> Int {
    let visible = reader.visible
    guard visible.count > 0 else { return 100 }
    return min(100, max(0, (offset - visible.lowerBound) * 100 / visible.count))
  }
}
