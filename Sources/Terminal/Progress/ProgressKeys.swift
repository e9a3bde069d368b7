import Catalog
import Foundation

/// A book's kosync document key, as KOReader computes it for the EPUB Project Gutenberg
/// publishes: with binary matching (KOReader's default), the partial MD5 of the library's EPUB
/// of the book; with file-name matching, the MD5 of Project Gutenberg's name for that EPUB
/// (`pg84-images-3.epub`), the name it has on a device when it came from Project Gutenberg or
/// from `gutenberg send`.
@MainActor
struct ProgressKeys {
  let context: AppContext

  /// The key and the file name it stands for; nil when binary matching has no EPUB to read.
  func key(id: Int, method: DocumentKey.Method, known: BookProgress? = nil) async -> (
    document: String, file: String
  )? {
    let entries = (try? await context.service.downloads(id: id)) ?? []
    let epub = entries.first { $0.format == BookFormat.epub.description && $0.isPresent }
    let name =
      epub.flatMap { entry in
        URL(string: entry.url).flatMap { DocumentKey.gutenbergFileName(id: id, url: $0) }
      }
      ?? "pg\(id)-images-3.epub"
    switch method {
    case .filename:
      return (DocumentKey.fileName(name), name)
    case .binary:
      if let epub, let key = DocumentKey.binary(path: epub.path) { return (key, name) }
      // Computed from a file the library had before (it may have been removed since).
      if let document = known?.document { return (document, known?.file ?? name) }
      return nil
    }
  }

  /// The `progress` string pushed with a place at `fraction` of book `id`: KOReader's xpointer
  /// of the chapter holding it, from the library's EPUB (`/body/DocFragment[7].0`), so a
  /// KOReader that takes it opens that chapter; empty when the library has no EPUB.
  func progress(id: Int, at fraction: Double) async -> String {
    let entries = (try? await context.service.downloads(id: id)) ?? []
    guard
      let epub = entries.first(where: { $0.format == BookFormat.epub.description && $0.isPresent }),
      let spine = EPUBSpine(path: epub.path)
    else { return "" }
    return spine.xpointer(at: fraction)
  }

  /// The key, fetching the book's EPUB into the library first when binary matching needs it
  /// (once per book: KOReader's record is of that file).
  func keyFetching(id: Int, method: DocumentKey.Method, known: BookProgress?, mirror: String?)
    async -> (document: String, file: String)?
  {
    if let found = await key(id: id, method: method, known: known) { return found }
    context.output.printError(
      "note: fetching book \(id)'s EPUB too: KOReader's progress record is of that file")
    guard
      case .success = await LibraryFiles(context: context).file(
        id: id, format: .epub, mirror: mirror, ownsInterrupts: true)
    else { return nil }
    return await key(id: id, method: method, known: known)
  }
}
