import Catalog

/// A line of a downloaded text where the words were found: the book, the chapter, and the line
/// cut around the match, in three sanitised parts so the match can be marked.
package struct LibraryMatch: Sendable, Equatable {
  /// The book's download.
  package let entry: LibraryEntry
  /// The heading of the reader's table of contents the match comes under, if any.
  package let chapter: String?
  /// The byte offset of the match in the file (`read ID --at OFFSET` opens the reader there).
  package let offset: Int
  /// The line before the match, cut to fit (starting with `…` when cut).
  package let before: String
  /// The words as the text has them.
  package let match: String
  /// The line after the match, cut to fit (ending with `…` when cut).
  package let after: String

  /// The command that opens the reader on the match.
  package var command: String { "gutenberg read \(entry.id) --at \(offset)" }

  /// The line with the match marked: reverse video with colour, else between `»` and `«`, as
  /// the reader marks a search match.
  package func line(style: Style) -> String {
    before + (style.isEnabled ? style.reverse(match) : "»" + match + "«") + after
  }

  /// The line unmarked.
  package var plainLine: String { before + match + after }
}
