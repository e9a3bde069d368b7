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

  /// The last match of `needle` starting in `range`, searching back a chunk at a time.
  func findLast(_ needle: String, in range: Range<Int>) -> Range<Int>? {
    guard !needle.isEmpty, !range.isEmpty else { return nil }
    let overlap = needle.utf8.count * 4 + 16
    let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .backwards]
    var end = range.upperBound
    while end > range.lowerBound {
      var start = max(range.lowerBound, end - Self.searchChunk)
      while start > range.lowerBound, bytes[start] & 0xC0 == 0x80 { start -= 1 }
      // The chunk runs a little past `end`, so a match that starts before it is found whole.
      var chunkEnd = min(bytes.count, end + overlap)
      while chunkEnd < bytes.count, bytes[chunkEnd] & 0xC0 == 0x80 { chunkEnd += 1 }
      let chunk = bytes.string(start..<chunkEnd)
      var searchEnd = chunk.endIndex
      while let found = chunk.range(
        of: needle, options: options, range: chunk.startIndex..<searchEnd)
      {
        let lower = start + bytes.byteCount(of: chunk[..<found.lowerBound])
        if lower < end {
          let upper = start + bytes.byteCount(of: chunk[..<found.upperBound])
          return lower..<min(upper, bytes.count)
        }
        // Starts past `end` (in the overlap): look before it.
        searchEnd = chunk.index(before: found.upperBound)
      }
      end = start
    }
    return nil
  }
}
