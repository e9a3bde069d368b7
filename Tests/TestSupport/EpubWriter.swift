import CArchive
import Foundation

/// EPUB files made by the tests and the bench, as the standard lays them out: a zip (written by
/// libarchive) whose first entry is `mimetype`, stored, then `META-INF/container.xml` naming the
/// package document, the package document (its manifest and spine), and the documents, deflated.
public enum EpubWriter {
  /// One file of the book: its path inside the zip and its bytes.
  public struct File: Sendable {
    /// Where it is in the zip.
    public var path: String
    /// What it holds.
    public var bytes: Data

    /// The file `path` holding `bytes`.
    public init(path: String, bytes: Data) {
      self.path = path
      self.bytes = bytes
    }

    /// The file `path` holding `text` (UTF-8).
    public init(path: String, text: String) {
      self.init(path: path, bytes: Data(text.utf8))
    }
  }

  /// An XHTML document with `body` (markup) as its body.
  public static func xhtml(title: String, body: String) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?>
    <!DOCTYPE html>
    <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
    <head><title>\(title)</title><style>p { text-indent: 1em; }</style></head>
    <body>
    \(body)
    </body>
    </html>
    """
  }

  /// Writes an EPUB to `path`: `documents` (paths under `OEBPS/`) in the zip and the manifest
  /// in the order given, the spine reading `spine` (their paths, in reading order), `extra`
  /// files after them (images).
  public static func write(
    to path: String, title: String, documents: [File], spine: [String], extra: [File] = []
  ) throws {
    let manifest = documents.enumerated().map { number, file in
      "<item id=\"d\(number)\" href=\"\(file.path)\" media-type=\"application/xhtml+xml\"/>"
    }
    let ids = Dictionary(
      uniqueKeysWithValues: documents.enumerated().map { ($1.path, "d\($0)") })
    let itemrefs = spine.map { "<itemref idref=\"\(ids[$0] ?? "missing")\"/>" }
    let opf = """
      <?xml version="1.0" encoding="utf-8"?>
      <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:identifier id="id">test</dc:identifier><dc:title>\(title)</dc:title>
      <dc:language>en</dc:language>
      </metadata>
      <manifest>\(manifest.joined(separator: "\n"))</manifest>
      <spine>\(itemrefs.joined(separator: "\n"))</spine>
      </package>
      """
    let container = """
      <?xml version="1.0"?>
      <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
      <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
      </rootfiles></container>
      """
    let files =
      [
        File(path: "mimetype", text: "application/epub+zip"),
        File(path: "META-INF/container.xml", text: container),
        File(path: "OEBPS/content.opf", text: opf),
      ] + documents.map { File(path: "OEBPS/" + $0.path, bytes: $0.bytes) }
      + extra.map { File(path: "OEBPS/" + $0.path, bytes: $0.bytes) }
    try writeZip(files, to: path)
  }

  /// A zip of `files` at `path`: the first stored, the others deflated.
  public static func writeZip(_ files: [File], to path: String) throws {
    if let reason = gb_archive_load() { throw HarnessFailure(description: String(cString: reason)) }
    guard let archive = gb_archive_write_new() else {
      throw HarnessFailure(description: "libarchive could not start")
    }
    defer { gb_archive_write_free(archive) }
    gb_archive_write_set_format_zip(archive)
    guard gb_archive_write_open_filename(archive, path) == ARCHIVE_OK else {
      throw HarnessFailure(description: "cannot write \(path)")
    }
    let entry = gb_archive_entry_new()
    defer { gb_archive_entry_free(entry) }
    for (number, file) in files.enumerated() {
      gb_archive_write_zip_set_compression(archive, number == 0 ? 0 : 1)
      gb_archive_entry_clear(entry)
      gb_archive_entry_set_pathname(entry, file.path)
      gb_entry_set_regular_file(entry, 0o644)
      gb_archive_entry_set_size(entry, la_int64_t(file.bytes.count))
      guard gb_archive_write_header(archive, entry) == ARCHIVE_OK,
        file.bytes.withUnsafeBytes({ gb_archive_write_data(archive, $0.baseAddress, $0.count) })
          == file.bytes.count
      else {
        let reason = gb_archive_error_string(archive).map { String(cString: $0) } ?? "?"
        throw HarnessFailure(description: "cannot write \(path): \(reason)")
      }
    }
    guard gb_archive_write_close(archive) == ARCHIVE_OK else {
      throw HarnessFailure(description: "cannot finish \(path)")
    }
  }
}
