import Foundation

/// The words at a place in a book, kept with its byte offset so the place can be found again
/// when the offset no longer points at it: Project Gutenberg re-issues files with a changed
/// header (every offset moves), and another edition of the same text wraps it differently.
package enum PlaceQuote {
  /// Bytes of text kept: enough words that a place is rarely ambiguous.
  static let length = 64

  /// What became of a saved place in the text as it is now.
  package enum Match: Sendable, Equatable {
    /// The words are still at the offset (or no words were kept, so it cannot be checked).
    case same(Int)
    /// The words were found at another offset: the file changed.
    case moved(Int)
    /// The words are nowhere in the text.
    case lost
  }

  /// The words from `offset` on, whitespace runs collapsed to one space, about ``length``
  /// bytes ending at a word's end.
  package static func quote(in text: BookText, at offset: Int) -> String {
    let bytes = text.bytes
    var position = skipSpace(in: text, from: max(text.allBytes.lowerBound, offset))
    var kept: [UInt8] = []
    while position < bytes.count, kept.count < length + 24 {
      let byte = bytes[position]
      if isSpace(byte) {
        if kept.count >= length { break }
        kept.append(0x20)
        position = skipSpace(in: text, from: position)
        continue
      }
      kept.append(byte)
      position += 1
    }
    if kept.last == 0x20 { kept.removeLast() }
    // Cut at the last whole UTF-8 character (a long word can stop inside one).
    if text.bytes.encoding == .utf8 {
      var end = kept.count
      while end > 0, kept[end - 1] & 0xC0 == 0x80 { end -= 1 }
      if end > 0, kept[end - 1] >= 0xC0 {
        let lead = kept[end - 1]
        let size = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        if kept.count - (end - 1) < size { kept.removeSubrange((end - 1)...) }
      }
    }
    return kept.withUnsafeBufferPointer { buffer in
      switch text.bytes.encoding {
      case .utf8: String(decoding: buffer, as: UTF8.self)
      case .windows1252: TextBytes.decodeWindows1252(buffer)
      }
    }
  }

  /// Where `quote` is now: still at `offset`, at the nearest other place that has it, or
  /// nowhere. A missing or empty quote (saved by an older version) cannot be checked.
  package static func locate(_ quote: String?, savedAt offset: Int, in text: BookText) -> Match {
    guard let quote, !quote.isEmpty else { return .same(offset) }
    let needle = encoded(quote, for: text)
    guard let first = needle.first else { return .same(offset) }
    let bytes = text.bytes
    let start = skipSpace(in: text, from: max(text.allBytes.lowerBound, min(offset, bytes.count)))
    if matches(needle, in: text, at: start) { return .same(offset) }
    var best: Int?
    var position = text.allBytes.lowerBound
    while position < bytes.count {
      if bytes[position] == first, matches(needle, in: text, at: position) {
        if let current = best, abs(current - offset) <= abs(position - offset) { break }
        best = position
      }
      position += 1
    }
    return best.map(Match.moved) ?? .lost
  }

  /// Where the words of `quote` end when they are read at `position` (the offset after their
  /// last byte), nil when they are not there; a highlight found again keeps its whole passage.
  package static func end(of quote: String, at position: Int, in text: BookText) -> Int? {
    matchEnd(encoded(quote, for: text), in: text, at: position)
  }

  /// The quote as the file's bytes (UTF-8, or Windows-1252 for a Latin-1 text).
  static func encoded(_ quote: String, for text: BookText) -> [UInt8] {
    if text.bytes.encoding == .windows1252,
      let data = quote.data(using: .windowsCP1252, allowLossyConversion: false)
    {
      return [UInt8](data)
    }
    return Array(quote.utf8)
  }

  /// True when the text at `position` reads `needle`, a space in it standing for any run of
  /// whitespace (line ends included).
  static func matches(_ needle: [UInt8], in text: BookText, at position: Int) -> Bool {
    matchEnd(needle, in: text, at: position) != nil
  }

  /// Where `needle` ends when the text at `position` reads it (as ``matches(_:in:at:)``
  /// reads it), nil when it does not.
  private static func matchEnd(_ needle: [UInt8], in text: BookText, at position: Int) -> Int? {
    let bytes = text.bytes
    var at = position
    for byte in needle {
      if byte == 0x20 {
        guard at < bytes.count, isSpace(bytes[at]) else { return nil }
        at = skipSpace(in: text, from: at)
      } else {
        guard at < bytes.count, bytes[at] == byte else { return nil }
        at += 1
      }
    }
    return at
  }

  static func skipSpace(in text: BookText, from position: Int) -> Int {
    var at = position
    while at < text.bytes.count, isSpace(text.bytes[at]) { at += 1 }
    return at
  }

  @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
