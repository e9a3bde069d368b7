import Foundation
import Gutendex

/// A downloadable edition of a book, as the user names it (`epub`, `txt`, ...) or by MIME type.
///
/// With no format given, ``preference`` decides: EPUB with images, then plain text (UTF-8 first),
/// then HTML, then Kindle (MOBI), then EPUB without images. The choice is made from the book's
/// `formats` only, so it works offline with the embedded catalogue.
public enum BookFormat: Sendable, Hashable, CustomStringConvertible {
  /// `application/epub+zip`, with images.
  case epub
  /// The same EPUB without images (Project Gutenberg's `.epub.noimages`).
  case epubNoImages
  /// `text/plain`, UTF-8 preferred.
  case text
  /// `text/html`.
  case html
  /// `application/x-mobipocket-ebook`.
  case mobi
  /// Any other MIME type the book lists (`application/rdf+xml`, `audio/mpeg`, ...).
  case mime(String)

  /// The order tried when no format is asked for.
  public static let preference: [BookFormat] = [.epub, .text, .html, .mobi, .epubNoImages]

  /// The names accepted on the command line.
  public static let names = ["epub", "epub-noimages", "txt", "html", "mobi"]

  /// Parses `epub`, `epub-noimages`, `txt` (or `text`), `html`, `mobi`, or a MIME type
  /// (anything with a `/`); nil for anything else.
  public init?(argument: String) {
    switch argument.lowercased() {
    case "epub", "epub3", "epub-images": self = .epub
    case "epub-noimages", "epub-no-images": self = .epubNoImages
    case "txt", "text", "plain": self = .text
    case "html", "htm": self = .html
    case "mobi", "kindle", "kf8": self = .mobi
    default:
      guard argument.contains("/"),
        !argument.contains(where: \.isWhitespace) || argument.contains(";")
      else { return nil }
      self = .mime(argument.lowercased())
    }
  }

  /// The name used in the library and messages (`epub`, `txt`, or the MIME type).
  public var description: String {
    switch self {
    case .epub: "epub"
    case .epubNoImages: "epub-noimages"
    case .text: "txt"
    case .html: "html"
    case .mobi: "mobi"
    case .mime(let type): type
    }
  }

  /// A chosen edition: where it is and what the file will be called.
  public struct Choice: Sendable, Hashable {
    /// The format chosen.
    public var format: BookFormat
    /// The `formats` key it came from.
    public var mimeType: String
    /// The URL to download.
    public var url: URL
    /// The file name extension (`epub`, `txt`, ...).
    public var fileExtension: String
    /// A suffix for the file name that tells editions with the same extension apart.
    public var nameSuffix: String
  }

  /// Picks this format among a book's `formats`; nil when the book does not have it.
  public func pick(from formats: [String: String]) -> Choice? {
    func url(_ key: String) -> URL? {
      formats[key].flatMap { URL(string: $0) }.flatMap { $0.scheme == nil ? nil : $0 }
    }
    func first(_ prefix: String, preferring preferred: [String]) -> (String, URL)? {
      let keys = formats.keys.filter { $0.lowercased().hasPrefix(prefix) }.sorted()
      let ordered =
        preferred.compactMap { wanted in keys.first { $0.lowercased() == wanted } }
        + keys
      for key in ordered {
        if let link = url(key), !link.path.hasSuffix(".zip") { return (key, link) }
      }
      return nil
    }
    switch self {
    case .epub:
      guard let (key, link) = first("application/epub+zip", preferring: []) else { return nil }
      return Choice(format: self, mimeType: key, url: link, fileExtension: "epub", nameSuffix: "")
    case .epubNoImages:
      guard let (key, link) = first("application/epub+zip", preferring: []) else { return nil }
      let text = link.absoluteString
      var derived = link
      for suffix in [".epub3.images", ".epub.images"] where text.hasSuffix(suffix) {
        derived = URL(string: String(text.dropLast(suffix.count)) + ".epub.noimages") ?? link
      }
      guard derived.absoluteString.hasSuffix(".noimages") else { return nil }
      return Choice(
        format: self, mimeType: key, url: derived, fileExtension: "epub",
        nameSuffix: "-noimages")
    case .text:
      guard
        let (key, link) = first(
          "text/plain",
          preferring: ["text/plain; charset=utf-8", "text/plain", "text/plain; charset=us-ascii"])
      else { return nil }
      return Choice(format: self, mimeType: key, url: link, fileExtension: "txt", nameSuffix: "")
    case .html:
      guard
        let (key, link) = first("text/html", preferring: ["text/html; charset=utf-8", "text/html"])
      else { return nil }
      return Choice(format: self, mimeType: key, url: link, fileExtension: "html", nameSuffix: "")
    case .mobi:
      guard let (key, link) = first("application/x-mobipocket-ebook", preferring: []) else {
        return nil
      }
      return Choice(format: self, mimeType: key, url: link, fileExtension: "mobi", nameSuffix: "")
    case .mime(let type):
      let key =
        formats.keys.first { $0.lowercased() == type }
        ?? formats.keys.sorted().first { $0.lowercased().hasPrefix(type) }
      guard let key, let link = url(key) else { return nil }
      let pathExtension = link.pathExtension.lowercased()
      let safe =
        (1...5).contains(pathExtension.count)
        && pathExtension.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
      return Choice(
        format: self, mimeType: key, url: link, fileExtension: safe ? pathExtension : "bin",
        nameSuffix: "")
    }
  }

  /// The edition to download: `wanted`, or the first of ``preference`` the book has.
  public static func choose(_ wanted: BookFormat?, for book: Book) throws(CatalogError) -> Choice {
    if let wanted {
      if let choice = wanted.pick(from: book.formats) { return choice }
      throw .invalidInput(
        "book \(book.id) has no \(wanted) edition; it has: \(available(in: book.formats))")
    }
    for format in preference {
      if let choice = format.pick(from: book.formats) { return choice }
    }
    throw .invalidInput(
      "book \(book.id) has nothing to download as a book; it has: \(available(in: book.formats))")
  }

  /// What a book offers, by the names `--format` takes: `epub, txt, html, mobi, image/jpeg`.
  public static func available(in formats: [String: String]) -> String {
    var names: [String] = []
    var covered = Set<String>()
    for format in [BookFormat.epub, .epubNoImages, .text, .html, .mobi] {
      if let choice = format.pick(from: formats) {
        names.append(format.description)
        covered.insert(choice.mimeType)
      }
    }
    for key in formats.keys.sorted() where !covered.contains(key) {
      names.append(key)
    }
    return names.isEmpty ? "no formats at all" : names.joined(separator: ", ")
  }
}
