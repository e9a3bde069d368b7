/// Wrapping a piece into display rows that know where they start in the text.
extension BookText {
  /// The rows of `piece` at `width` cells: words wrapped by display width, the line's
  /// indentation kept when it is under half the width, a word longer than a row cut between
  /// characters. Every piece has at least one row (a blank line is one empty row).
  ///
  /// A row is put together as bytes and made a string once (most words are printable ASCII,
  /// copied from the text as they are, see ``RowWrapper``): a 5 MB book is about a million
  /// words.
  func rows(of piece: TextPiece, width: Int) -> [TextRow] {
    if piece.layout == .asWritten { return WrittenLine(bytes, piece.range).rows(width: width) }
    let indent = indent(at: piece.lineStart)
    let firstPrefix = indent < width / 2 ? indent : 0
    // A paragraph's later rows start at the margin; a long line's keep its indentation.
    let prefix = piece.layout == .paragraph ? 0 : firstPrefix
    var wrapper = RowWrapper(
      bytes, width: width, firstPrefix: firstPrefix, prefix: prefix,
      start: piece.range.lowerBound)
    wrapper.wrap(piece.range, acrossLines: piece.layout == .paragraph)
    return wrapper.finish()
  }
}
