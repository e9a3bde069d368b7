import Catalog
import Foundation
import Gutendex

/// Which edition `read` opens, and what an EPUB's first page needs.
extension ReadRunner {
  /// The edition `read` opens: the one asked for; else the plain text, unless the library has
  /// none and the book has none either (from the catalogue, with no request when it is local),
  /// when it is the EPUB.
  func readableFormat(id: Int, asked: BookFormat?) async -> BookFormat {
    if let asked { return asked }
    let known = (try? await service.downloads(id: id)) ?? []
    func inLibrary(_ format: BookFormat) -> Bool {
      known.contains { $0.format == format.description && $0.isPresent }
    }
    if inLibrary(.text) { return .text }
    guard let book = try? await service.book(id: id).book else {
      return inLibrary(.epub) ? .epub : .text
    }
    return Self.readableFormat(of: book)
  }

  /// The plain text when `book` has one, else its EPUB (with images first), else the plain
  /// text still (whose absence the download then reports).
  nonisolated static func readableFormat(of book: Book) -> BookFormat {
    if BookFormat.text.pick(from: book.formats) != nil { return .text }
    return [BookFormat.epub, .epubNoImages].first { $0.pick(from: book.formats) != nil } ?? .text
  }

  /// True for a library file that is an EPUB.
  nonisolated static func isEpub(_ entry: LibraryEntry) -> Bool {
    entry.format.hasPrefix("epub") || entry.path.lowercased().hasSuffix(".epub")
  }

  /// The text an EPUB's first page waits for: up to the place it opens at (`--at`, or where
  /// the reader stopped) and a screenful after it, more than any window shows.
  nonisolated static func epubStart(_ offset: Int?, _ saved: ReadingPosition?) -> Int {
    (offset ?? saved?.byteOffset ?? 0) + EpubConversion.firstPageBytes
  }
}
