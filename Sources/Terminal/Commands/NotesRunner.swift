import Catalog
import Foundation

/// `gutenberg notes [ID]`: the bookmarks and highlights of every book (or one), with their
/// quote, chapter, place and the command that opens the book there; as lines, TSV, JSON or a
/// Markdown document per book. Their words and chapters are the ones kept when they were
/// made, so a book whose download is gone still lists its notes.
package struct NotesRunner: CommandRunner {
  let context: AppContext

  /// How the notes are written.
  package enum Format: Sendable {
    /// Lines on a terminal, TSV in a pipe.
    case automatic
    case json
    case markdown
  }

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Lists the notes.
  package func run(id: Int?, format: Format) async -> ExitStatus {
    let books: [BookNotes]
    do {
      books = try await gather(id: id)
    } catch {
      return fail(error)
    }
    switch format {
    case .json:
      output.print(books.isEmpty ? "[]" : JSONText.text(books.map(\.json), empty: "[]"))
    case .markdown:
      guard !books.isEmpty else {
        output.printError(emptyLine(id))
        return .ok
      }
      output.write(books.map { $0.markdown() }.joined())
    case .automatic where !output.isTerminal:
      output.print(books.flatMap { $0.tsvLines() })
    case .automatic:
      guard !books.isEmpty else {
        output.print(emptyLine(id))
        return .ok
      }
      output.print(books.flatMap { $0.lines(width: output.width, style: output.style) })
    }
    return .ok
  }

  private func emptyLine(_ id: Int?) -> String {
    id.map { "book \($0) has no notes" }
      ?? "no notes yet (in the reader: /word then hl [note], or b [note])"
  }

  /// The notes by book, numbered as the reader numbers them; a note made before chapters were
  /// kept takes its chapter from the library's contents of the download, when they still
  /// describe the file.
  private func gather(id: Int?) async throws(CatalogError) -> [BookNotes] {
    let bookmarks = try await service.marks.bookmarks(id: id)
    guard !bookmarks.isEmpty else { return [] }
    let needsChapters = bookmarks.contains { $0.chapter == nil }
    var chapters: [Int: [LibraryContents.Chapter]] = [:]
    var titles: [Int: String] = [:]
    let downloads = try await service.downloads(id: id)
    for entry in downloads where titles[entry.id] == nil {
      titles[entry.id] = entry.title
    }
    if needsChapters {
      let sizes = Dictionary(
        downloads.map { ("\($0.id)/\($0.format)", $0.size) },
        uniquingKeysWith: { first, _ in first })
      for contents in try await service.downloadContents()
      where sizes["\(contents.id)/\(contents.format)"] == contents.size
        && chapters[contents.id] == nil
      {
        chapters[contents.id] = contents.chapters
      }
    }
    var books: [BookNotes] = []
    for (number, bookmark) in BookmarkText.numbered(bookmarks) {
      if books.last?.id != bookmark.bookID {
        let book = await service.noteBook(id: bookmark.bookID)
        books.append(
          BookNotes(
            id: bookmark.bookID,
            title: book.map(\.title).flatMap { $0.isEmpty ? nil : $0 }
              ?? titles[bookmark.bookID] ?? "",
            authors: book?.authors.map(\.name) ?? [], notes: []))
      }
      let chapter =
        bookmark.chapter
        ?? chapters[bookmark.bookID]?.last { $0.offset <= bookmark.byteOffset }?.title
      books[books.count - 1].notes.append(
        BookNotes.Note(number: number, bookmark: bookmark, chapter: chapter))
    }
    return books
  }
}
