/// A stretch of one line that is wrapped on its own: the whole line, or, for a line longer
/// than ``BookText/pieceSize``, one part of it starting at a word. Pieces depend only on the
/// bytes, never on the width, so a position inside one survives a change of width, and no
/// page ever needs more than a few pieces wrapped, however long the line.
struct TextPiece: Sendable, Equatable {
  /// The bytes wrapped (line ends excluded).
  let range: Range<Int>
  /// Where the line starts (its indentation applies to every piece of it).
  let lineStart: Int
  /// Which piece of the line this is, from 0.
  let number: Int
  /// True when the line (or the shown text) ends with this piece.
  let endsLine: Bool
}

/// One display row: where it starts in the text, and its text, fitted to the width.
package struct TextRow: Sendable, Equatable {
  /// The byte offset of the row's first character (the piece's start for its first row).
  package let start: Int
  /// What is shown: sanitised, indented, at most the width in cells.
  package let text: String
}
