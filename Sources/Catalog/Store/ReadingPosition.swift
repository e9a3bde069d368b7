/// Where the reader stopped in a book: the line of the first row shown and, since the reader
/// pages by display rows (a paragraph on one line can fill many pages), that row's byte offset.
public struct ReadingPosition: Sendable, Hashable {
  /// The line (from 0, counting every line of the file) holding the first row shown.
  public var line: Int
  /// The first row's byte offset in the file; nil for positions saved by older versions,
  /// which kept only the line.
  public var byteOffset: Int?

  /// A position at `line`, and at `byteOffset` when known.
  public init(line: Int, byteOffset: Int? = nil) {
    self.line = line
    self.byteOffset = byteOffset
  }
}
