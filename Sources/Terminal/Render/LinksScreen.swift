import Gutendex

/// Every download link of a book, best reading formats first: EPUB, HTML, plain text, Kindle,
/// then the rest by MIME type.
package struct LinksScreen: Sendable, Hashable {
  /// The Project Gutenberg number.
  package var id: Int
  /// The book's title.
  package var title: String
  /// Download URL by MIME type, as the server sent them.
  package var formats: [String: String]
  /// The keys shown at the bottom.
  package var hints: [String]

  /// The keys shown under the links.
  package static let defaultHints = ["b back", "? help", "q quit"]

  /// A links screen from its parts.
  package init(id: Int, title: String, formats: [String: String], hints: [String] = defaultHints) {
    self.id = id
    self.title = title
    self.formats = formats
    self.hints = hints
  }

  /// The links of `book`.
  package init(book: Book, hints: [String] = defaultHints) {
    self.init(id: book.id, title: book.title, formats: book.formats, hints: hints)
  }

  /// The formats in reading order: EPUB, HTML, plain text, Kindle, then others by MIME type.
  package var sortedFormats: [(mime: String, url: String)] {
    // A URL never holds a space; one that does after sanitising is encoded, so the URL stays
    // one copyable word.
    formats.map { format in
      let url = Sanitizer.sanitize(format.value).replacingOccurrences(of: " ", with: "%20")
      return (mime: Sanitizer.sanitize(format.key), url: url)
    }
    .sorted { left, right in
      let (leftRank, rightRank) = (Self.rank(left.mime), Self.rank(right.mime))
      if leftRank != rightRank { return leftRank < rightRank }
      if left.mime != right.mime { return left.mime < right.mime }
      return left.url < right.url
    }
  }

  /// 0 EPUB, 1 HTML, 2 plain text, 3 Kindle, 4 anything else.
  static func rank(_ mime: String) -> Int {
    let lower = mime.lowercased()
    if lower.hasPrefix("application/epub") { return 0 }
    if lower.hasPrefix("text/html") { return 1 }
    if lower.hasPrefix("text/plain") { return 2 }
    if lower.hasPrefix("application/x-mobipocket") { return 3 }
    return 4
  }
}

extension LinksScreen: LineRendering {
  /// `Links for 1342 · Title`, then `MIME  URL` per format, or each URL under its MIME type
  /// when both do not fit on a line. URLs are never cut.
  package func lines(width: Int, style: Style) -> [String] {
    let links = sortedFormats
    let heading = "Links for \(id) · " + TextFormat.plural(links.count, "format") + " · "
    let title = Sanitizer.title(self.title)
    var lines = [
      style.bold(
        heading + DisplayWidth.truncate(title, toCells: width - DisplayWidth.cells(heading)))
    ]
    if links.isEmpty {
      lines.append("No download links for this book.")
    }
    let mimeWidth = links.map { DisplayWidth.cells($0.mime) }.max() ?? 0
    let urlWidth = links.map { DisplayWidth.cells($0.url) }.max() ?? 0
    if 2 + mimeWidth + 2 + urlWidth <= width {
      for link in links {
        lines.append(
          "  " + DisplayWidth.pad(link.mime, toCells: mimeWidth) + "  " + style.cyan(link.url))
      }
    } else {
      for link in links {
        lines.append(DisplayWidth.truncate("  " + link.mime, toCells: width))
        let indented = "    " + link.url
        lines.append(style.cyan(DisplayWidth.cells(indented) <= width ? indented : link.url))
      }
    }
    return lines + ScreenParts.hints(hints, width: width, style: style)
  }

  /// The heading, the links, and the keys.
  package func parts(width: Int, style: Style) -> ScreenLines {
    ScreenLines(
      lines(width: width, style: style), heading: 1,
      footer: ScreenParts.hints(hints, width: width, style: style).count)
  }
}
