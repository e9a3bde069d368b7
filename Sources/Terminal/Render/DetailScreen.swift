import Catalog
import Foundation
import Gutendex

/// Everything known about one book, one labelled field per line, long text wrapped.
package struct DetailScreen: Sendable, Hashable {
  /// The book shown.
  package var book: Book
  /// Whether the book is a favourite.
  package var isFavorite: Bool
  /// True when the book came from the embedded catalogue, which carries no summaries.
  package var summaryNeedsNetwork: Bool
  /// Where the book came from; a banner is shown when not live.
  package var provenance: Provenance
  /// The time ages in the banner are measured from.
  package var now: Date
  /// The keys shown at the bottom.
  package var hints: [String]
  /// Where the book was downloaded (a `(missing)` note when the file is gone).
  package var downloads: [String] = []
  /// The book's last progress sync record (`on Kobo: 42%, 2 h ago`), if any.
  package var progress: String?

  /// The keys shown under a book.
  package static let defaultHints = [
    "l links", "f fav", "d download", "read", "b back", "? help", "q quit",
  ]

  /// A details screen.
  package init(
    book: Book, isFavorite: Bool = false, summaryNeedsNetwork: Bool = false,
    provenance: Provenance = .network, now: Date = Date(),
    hints: [String] = DetailScreen.defaultHints
  ) {
    self.book = book
    self.isFavorite = isFavorite
    self.summaryNeedsNetwork = summaryNeedsNetwork
    self.provenance = provenance
    self.now = now
    self.hints = hints
  }

  /// The book's page on Project Gutenberg.
  package var gutenbergURL: String { "https://www.gutenberg.org/ebooks/\(book.id)" }
}

extension DetailScreen: LineRendering {
  /// The title, banner, labelled fields, summary, messages and keys.
  package func lines(width: Int, style: Style) -> [String] {
    parts(width: width, style: style).lines
  }

  /// The title and banner, the fields and summary, and the keys.
  package func parts(width: Int, style: Style) -> ScreenLines {
    let labelWidth = 14
    func field(_ label: String, _ value: String) -> [String] {
      ScreenParts.field(label, value, labelWidth: labelWidth, width: width, style: style)
    }
    func list(_ singular: String, _ plural: String, _ values: [String]) -> [String] {
      ScreenParts.listField(
        singular, plural, values, labelWidth: labelWidth, width: width, style: style)
    }
    func people(_ persons: [Person]) -> [String] {
      persons.map { TextFormat.person(name: $0.name, birth: $0.birthYear, death: $0.deathYear) }
    }

    let title = Sanitizer.title(book.title)
    var lines = TextWrapper.wrap(title.isEmpty ? "(untitled)" : title, toCells: width)
      .map(style.bold)
    for banner in ProvenanceText.bannerLines(provenance, now: now) {
      lines += TextWrapper.wrap(banner, toCells: width).map(style.yellow)
    }
    let heading = lines.count
    lines +=
      book.authors.isEmpty
      ? field("Author", "unknown") : list("Author", "Authors", people(book.authors))
    lines += list("Translator", "Translators", people(book.translators ?? []))
    lines += list("Editor", "Editors", people(book.editors ?? []))
    lines += field(
      "Languages", book.languages.isEmpty ? "unknown" : book.languages.joined(separator: ", "))
    lines += field("Copyright", Self.copyrightText(book.copyright))
    lines += field("Media type", book.mediaType)
    lines += field("Downloads", TextFormat.grouped(book.downloadCount))
    lines += field("Formats", TextFormat.grouped(book.formats.count))
    lines += field("Favourite", isFavorite ? "yes (*)" : "no")
    lines += downloadLines(labelWidth: labelWidth, width: width, style: style)
    if let progress { lines += field("Progress", progress) }
    lines += field("Id", String(book.id))
    lines += ScreenParts.urlField(
      "URL", gutenbergURL, labelWidth: labelWidth, width: width, style: style)
    lines += list("Subject", "Subjects", book.subjects)
    lines += list("Bookshelf", "Bookshelves", book.bookshelves)
    lines += summaryLines(width: width, style: style)
    let keys = ScreenParts.hints(hints, width: width, style: style)
    return ScreenLines(lines + keys, heading: heading, footer: keys.count)
  }

  /// `Downloaded:` and each path, never broken (so it can be copied whole): after the label
  /// when it fits, else alone on its own line.
  private func downloadLines(labelWidth: Int, width: Int, style: Style) -> [String] {
    var lines: [String] = []
    let indent = String(repeating: " ", count: labelWidth)
    for (index, path) in downloads.map(Sanitizer.sanitize).enumerated() where !path.isEmpty {
      let head = index == 0 ? DisplayWidth.pad("Downloaded:", toCells: labelWidth) : indent
      let styledHead = index == 0 ? style.bold("Downloaded:") + head.dropFirst(11) : head
      if labelWidth + DisplayWidth.cells(path) <= width {
        lines.append(styledHead + path)
      } else {
        if index == 0 { lines.append(style.bold("Downloaded:")) }
        lines.append(path)
      }
    }
    return lines
  }

  /// `public domain in the USA`, `copyrighted in the USA` or `unknown`.
  static func copyrightText(_ copyright: Bool?) -> String {
    switch copyright {
    case true?: "copyrighted in the USA"
    case false?: "public domain in the USA"
    case nil: "unknown"
    }
  }

  /// `Summary:` then each summary as an indented paragraph; or why there is none.
  private func summaryLines(width: Int, style: Style) -> [String] {
    let summaries = (book.summaries ?? []).map(Sanitizer.sanitize).filter { !$0.isEmpty }
    if summaries.isEmpty {
      let reason = summaryNeedsNetwork ? "needs the network (embedded catalogue has none)" : "none"
      return ScreenParts.field("Summary", reason, labelWidth: 14, width: width, style: style)
    }
    var lines = [style.bold(summaries.count == 1 ? "Summary:" : "Summaries:")]
    for (index, summary) in summaries.enumerated() {
      if index > 0 { lines.append("") }
      lines += TextWrapper.wrap(summary, toCells: width, firstPrefix: "  ", prefix: "  ")
    }
    return lines
  }
}
