/// A stretch of text that is wrapped on its own: a prose paragraph (its lines joined), a line
/// kept as written, or, for a line longer than ``BookText/pieceSize``, one part of it starting
/// at a word. Pieces depend only on the bytes, never on the width, so a position inside one
/// survives a change of width, and no page ever needs more than a few pieces wrapped, however
/// long the line.
struct TextPiece: Sendable, Equatable {
  /// How a piece is cut into rows.
  enum Layout: Sendable, Equatable {
    /// Words wrapped to the width, the line's indentation on every row: a long line's piece.
    case line
    /// Prose: the words of several lines wrapped to the width as one paragraph, the first
    /// line's indentation on the first row only.
    case paragraph
    /// A line kept as written (verse, a table's row, a centred line): its spacing kept, cut
    /// only where it is wider than the window, the rest indented under it.
    case asWritten
  }

  /// The bytes wrapped (the last line's end excluded; a paragraph's inner line ends included).
  let range: Range<Int>
  /// Where the line starts (its indentation applies to every piece of it).
  let lineStart: Int
  /// Which piece of the line this is, from 0.
  let number: Int
  /// True when the line (or the shown text) ends with this piece.
  let endsLine: Bool
  /// How it is cut into rows.
  var layout: Layout = .line
}

/// One display row: where it starts in the text, and its text, fitted to the width.
package struct TextRow: Sendable, Equatable {
  /// The byte offset of the row's first character (the piece's start for its first row).
  package let start: Int
  /// What is shown: sanitised, indented, at most the width in cells.
  package let text: String
}
