import Foundation

/// Finding words in the bytes, a stretch at a time.
extension BookText {
  /// Bytes decoded and searched at a time.
  static let searchChunk = 64 * 1024

  /// The first match of `needle` (case- and accent-insensitive) starting in `range`, as bytes.
  /// The text is decoded a chunk at a time, chunks overlapping so a match across two is found.
  func find(_ needle: String, in range: Range<Int>) -> Range<Int>? {
    guard !needle.isEmpty, !range.isEmpty else { return nil }
    let overlap = needle.utf8.count * 4 + 16
    var start = range.lowerBound
    while start < range.upperBound {
      var end = min(bytes.count, start + Self.searchChunk)
      // Not inside a character: the decoder would see half of one.
      while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
      let chunk = bytes.string(start..<end)
      if let found = chunk.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) {
        let lower = start + bytes.byteCount(of: chunk[..<found.lowerBound])
        let upper = start + bytes.byteCount(of: chunk[..<found.upperBound])
        guard lower < range.upperBound else { return nil }
        return lower..<min(upper, bytes.count)
      }
      guard end < range.upperBound, end < bytes.count else { return nil }
      // The next chunk starts a little before this one's end, at a character's start.
      var next = max(start + 1, end - overlap)
      while next < end, bytes[next] & 0xC0 == 0x80 { next += 1 }
      start = next
    }
    return nil
  }
}
