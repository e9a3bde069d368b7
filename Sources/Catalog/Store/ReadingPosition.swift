import Foundation

/// Where the reader stopped in a book: the line of the first row shown and, since the reader
/// pages by display rows (a paragraph on one line can fill many pages), that row's byte offset.
public struct ReadingPosition: Sendable, Hashable {
  /// The line (from 0, counting every line of the file) holding the first row shown.
  public var line: Int
  /// The first row's byte offset in the file; nil for positions saved by older versions,
  /// which kept only the line.
  public var byteOffset: Int?
  /// The words at that offset, to find the place again in a changed file; nil for positions
  /// saved by older versions.
  public var quote: String?
  /// When the position was saved; nil for one not read from the store.
  public var updatedAt: Date?

  /// A position at `line`, and at `byteOffset` when known, with the words found there.
  public init(line: Int, byteOffset: Int? = nil, quote: String? = nil, updatedAt: Date? = nil) {
    self.line = line
    self.byteOffset = byteOffset
    self.quote = quote
    self.updatedAt = updatedAt
  }

  /// The same place: line, offset and words; when each was saved does not matter.
  public static func == (left: ReadingPosition, right: ReadingPosition) -> Bool {
    left.line == right.line && left.byteOffset == right.byteOffset && left.quote == right.quote
  }

  /// Hashes what ``==`` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(line)
    hasher.combine(byteOffset)
    hasher.combine(quote)
  }
}
