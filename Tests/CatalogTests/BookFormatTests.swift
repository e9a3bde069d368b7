import Foundation
import Gutendex
import Testing

@testable import Catalog

/// Choosing an edition from a book's formats, and naming the file.
@Suite struct BookFormatTests {
  /// Book 84's formats as the 2025-08 catalogue lists them.
  static let formats = [
    "text/html": "https://www.gutenberg.org/ebooks/84.html.images",
    "application/epub+zip": "https://www.gutenberg.org/ebooks/84.epub3.images",
    "application/x-mobipocket-ebook": "https://www.gutenberg.org/ebooks/84.kf8.images",
    "text/plain; charset=us-ascii": "https://www.gutenberg.org/ebooks/84.txt.utf-8",
    "application/rdf+xml": "https://www.gutenberg.org/ebooks/84.rdf",
    "image/jpeg": "https://www.gutenberg.org/cache/epub/84/pg84.cover.medium.jpg",
    "application/octet-stream": "https://www.gutenberg.org/cache/epub/84/pg84-h.zip",
  ]

  static let book = Book(
    id: 84, title: "Frankenstein; Or, The Modern Prometheus", formats: formats)

  @Test func thePreferenceIsEPUBThenText() throws {
    let choice = try BookFormat.choose(nil, for: Self.book)
    #expect(choice.format == .epub)
    #expect(choice.url.absoluteString == "https://www.gutenberg.org/ebooks/84.epub3.images")
    var textOnly = Self.book
    textOnly.formats = Self.formats.filter { $0.key.hasPrefix("text/") }
    #expect(try BookFormat.choose(nil, for: textOnly).format == .text)
  }

  @Test func eachNamedFormat() throws {
    #expect(try BookFormat.choose(.text, for: Self.book).url.path == "/ebooks/84.txt.utf-8")
    #expect(try BookFormat.choose(.html, for: Self.book).fileExtension == "html")
    #expect(try BookFormat.choose(.mobi, for: Self.book).fileExtension == "mobi")
    let noImages = try BookFormat.choose(.epubNoImages, for: Self.book)
    #expect(noImages.url.absoluteString == "https://www.gutenberg.org/ebooks/84.epub.noimages")
    let rdf = try BookFormat.choose(.mime("application/rdf+xml"), for: Self.book)
    #expect(rdf.fileExtension == "rdf")
    let zip = try BookFormat.choose(.mime("application/octet-stream"), for: Self.book)
    #expect(zip.fileExtension == "zip")
  }

  @Test func utf8TextIsPreferredOverASCII() throws {
    var book = Self.book
    book.formats["text/plain; charset=utf-8"] = "https://www.gutenberg.org/files/84/84-0.txt"
    #expect(try BookFormat.choose(.text, for: book).url.path == "/files/84/84-0.txt")
  }

  @Test func aMissingFormatListsWhatExists() {
    #expect(
      throws: CatalogError.invalidInput(
        "book 84 has no audio/mpeg edition; it has: epub, epub-noimages, txt, html, mobi, "
          + "application/octet-stream, application/rdf+xml, image/jpeg")
    ) {
      try BookFormat.choose(.mime("audio/mpeg"), for: Self.book)
    }
    var bare = Self.book
    bare.formats = [:]
    #expect(throws: CatalogError.self) { try BookFormat.choose(nil, for: bare) }
  }

  @Test(arguments: [
    ("epub", BookFormat.epub), ("EPUB", .epub), ("epub-noimages", .epubNoImages), ("txt", .text),
    ("text", .text), ("html", .html), ("mobi", .mobi), ("text/plain", .mime("text/plain")),
  ])
  func arguments(text: String, format: BookFormat) {
    #expect(BookFormat(argument: text) == format)
  }

  @Test func unknownArgumentsAreRefused() {
    #expect(BookFormat(argument: "pdf") == nil)
    #expect(BookFormat(argument: "") == nil)
  }

  @Test func fileNamesAreOursAndSafe() throws {
    let choice = try BookFormat.choose(nil, for: Self.book)
    #expect(
      DownloadNaming.fileName(id: 84, title: Self.book.title, choice: choice)
        == "84-frankenstein-or-the-modern-prometheus.epub")
    #expect(DownloadNaming.slug("Les Misérables") == "les-miserables")
    #expect(DownloadNaming.slug("../../etc/passwd\u{1B}[31m") == "etc-passwd-31m")
    #expect(DownloadNaming.slug("罪と罰") == "book")
    #expect(DownloadNaming.slug(String(repeating: "word ", count: 40)).count <= 60)
    let noImages = try BookFormat.choose(.epubNoImages, for: Self.book)
    #expect(
      DownloadNaming.fileName(id: 84, title: "Frankenstein", choice: noImages)
        == "84-frankenstein-noimages.epub")
  }

  @Test func aMirrorTakesGutenbergFilesOnly() throws {
    let mirror = try #require(DownloadMirror("http://127.0.0.1:8080/pg/"))
    #expect(
      mirror.rewrite(URL(string: "https://www.gutenberg.org/ebooks/84.epub3.images")!)
        .absoluteString == "http://127.0.0.1:8080/pg/ebooks/84.epub3.images")
    let other = URL(string: "https://example.org/84.epub")!
    #expect(mirror.rewrite(other) == other)
    #expect(DownloadMirror("ftp://x") == nil)
  }
  /// PG's own mirror hosts are read in PG's mirror tree: each edition www serves at
  /// `/ebooks/N.EDITION` under `/cache/epub/N/`, each posted file under its numbered folders.
  @Test(arguments: [
    ("https://www.gutenberg.org/ebooks/84.epub3.images", "/cache/epub/84/pg84-images-3.epub"),
    ("https://www.gutenberg.org/ebooks/1342.epub.images", "/cache/epub/1342/pg1342-images.epub"),
    ("https://www.gutenberg.org/ebooks/11.epub.noimages", "/cache/epub/11/pg11.epub"),
    ("https://www.gutenberg.org/ebooks/84.kf8.images", "/cache/epub/84/pg84-images-kf8.mobi"),
    ("https://www.gutenberg.org/ebooks/84.kindle.images", "/cache/epub/84/pg84-images.mobi"),
    ("https://www.gutenberg.org/ebooks/2701.txt.utf-8", "/cache/epub/2701/pg2701.txt"),
    ("https://www.gutenberg.org/ebooks/84.html.images", "/cache/epub/84/pg84-images.html"),
    (
      "https://www.gutenberg.org/cache/epub/84/pg84.cover.medium.jpg",
      "/cache/epub/84/pg84.cover.medium.jpg"
    ),
    ("http://www.gutenberg.org/files/84/84-0.txt", "/8/84/84-0.txt"),
    ("https://gutenberg.org/files/1342/1342-h/1342-h.htm", "/1/3/4/1342/1342-h/1342-h.htm"),
    ("https://www.gutenberg.org/files/5/5.txt", "/0/5/5.txt"),
    ("https://www.gutenberg.org/ebooks/84.unknown", "/ebooks/84.unknown"),
  ])
  func aMirrorOfPGsTreeTakesEachFileAtItsPlaceInTheTree(www: String, path: String) throws {
    let mirror = try #require(DownloadMirror("https://aleph.pglaf.org/"))
    #expect(mirror.layout == .gutenbergTree)
    #expect(mirror.rewrite(URL(string: www)!).absoluteString == "https://aleph.pglaf.org" + path)
    // Any other mirror keeps www's paths.
    let other = try #require(DownloadMirror("https://mirror.example/pg"))
    #expect(other.layout == .sameAsGutenberg)
    #expect(
      other.rewrite(URL(string: www)!).absoluteString
        == "https://mirror.example/pg" + URL(string: www)!.path)
  }

  /// A bulk download's default is one of PG's own mirrors, never www.
  @Test func theBulkDefaultIsAMirrorOfPGsTree() {
    #expect(!DownloadMirror.bulkDefault.isEmpty)
    for mirror in DownloadMirror.bulkDefault {
      #expect(mirror.layout == .gutenbergTree)
      #expect(mirror.base.scheme == "https")
      #expect(!DownloadMirror.gutenbergHosts.contains(mirror.base.host ?? ""))
    }
  }
}
