import Gutendex

/// Listings for pipes and files: one book per line, tab-separated id, title, authors (joined
/// with `; `), languages (comma-joined) and downloads; never cut, never coloured, sanitised
/// (titles without MARC subfield markers, as on screen), so `cut`, `awk` and spreadsheets can
/// read it; `--json` has the server's text as it came.
package enum TSVRenderer {
  /// The column names, for an optional first line.
  package static let header = "id\ttitle\tauthors\tlanguages\tdownloads"

  /// One line for `book` (without the line break).
  package static func line(_ book: Book) -> String {
    let fields = [
      String(book.id),
      Sanitizer.title(book.title),
      book.authors.map { field($0.name) }.filter { !$0.isEmpty }.joined(separator: "; "),
      book.languages.map(field).filter { !$0.isEmpty }.joined(separator: ","),
      String(book.downloadCount),
    ]
    return fields.joined(separator: "\t")
  }

  /// One line per book, with ``header`` first when asked.
  package static func lines(_ books: [Book], header: Bool = false) -> [String] {
    (header ? [Self.header] : []) + books.map(line)
  }

  /// A field's text: sanitised, so tabs and line breaks inside it are already single spaces.
  static func field(_ text: String) -> String {
    Sanitizer.sanitize(text)
  }
}
