import Foundation

/// A plain-text book held as bytes with the offsets of its lines, so a 5 MB book opens in a
/// few milliseconds: a line is decoded and sanitised only when it is shown or searched.
///
/// The Project Gutenberg header (everything up to the `*** START OF ...` line) and licence
/// footer (from the `*** END OF ...` line) are found once, so they can be folded away.
public struct BookText: Sendable {
  private let bytes: [UInt8]
  /// Where each line starts and ends in `bytes` (line breaks excluded).
  private let lines: [Range<Int>]
  /// The lines of the book itself, without the PG header and footer (all lines when there are
  /// no markers).
  public let body: Range<Int>

  /// How many lines there are in all.
  public var lineCount: Int { lines.count }

  /// Splits `data` into lines (`\n`, `\r\n` and `\r` all end a line) and finds the markers.
  public init(data: Data) {
    var bytes = [UInt8](data)
    // A UTF-8 byte order mark would show as a stray character on the first line.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    var lines: [Range<Int>] = []
    lines.reserveCapacity(bytes.count / 40)
    bytes.withUnsafeBufferPointer { buffer in
      var start = 0
      var index = 0
      let count = buffer.count
      while index < count {
        let byte = buffer[index]
        if byte == 0x0A || byte == 0x0D {
          lines.append(start..<index)
          if byte == 0x0D, index + 1 < count, buffer[index + 1] == 0x0A { index += 1 }
          start = index + 1
        }
        index += 1
      }
      if start < count { lines.append(start..<count) }
    }
    self.bytes = bytes
    self.lines = lines
    body = Self.findBody(lines.count) { index in
      String(decoding: bytes[lines[index]], as: UTF8.self)
    }
  }

  /// The raw text of line `index` (not sanitised).
  func rawLine(_ index: Int) -> String {
    String(decoding: bytes[lines[index]], as: UTF8.self)
  }

  /// Line `index` safe for a terminal: escapes and control characters removed by the
  /// ``Sanitizer``, tabs expanded, and the leading indentation (poetry, letters) kept.
  public func line(_ index: Int) -> String {
    let raw = rawLine(index)
    var indent = 0
    for character in raw {
      if character == " " {
        indent += 1
      } else if character == "\t" {
        indent += 4 - indent % 4
      } else {
        break
      }
    }
    let text = Sanitizer.sanitize(raw)
    guard !text.isEmpty else { return "" }
    return String(repeating: " ", count: min(indent, 40)) + text
  }

  /// Lines folded before the body (the PG header).
  public var foldedHeaderLines: Int { body.lowerBound }
  /// Lines folded after the body (the licence).
  public var foldedFooterLines: Int { lineCount - body.upperBound }

  /// How far the marker search looks from each end.
  static let markerWindow = 3000

  /// The lines between the START and END markers, without blank lines at either end.
  static func findBody(_ count: Int, line: (Int) -> String) -> Range<Int> {
    func isMarker(_ text: String, _ words: [String]) -> Bool {
      guard text.contains("***") || text.uppercased().hasPrefix("END OF") else { return false }
      let upper = text.uppercased()
      guard upper.contains("PROJECT GUTENBERG") else { return false }
      return words.contains { upper.contains($0) }
    }
    var start = 0
    for index in 0..<min(count, markerWindow)
    where isMarker(
      line(index), ["START OF THE PROJECT", "START OF THIS PROJECT", "START OF PROJECT"])
    {
      start = index + 1
      break
    }
    var end = count
    var index = count - 1
    while index >= max(start, count - markerWindow) {
      let text = line(index)
      if isMarker(text, ["END OF THE PROJECT", "END OF THIS PROJECT", "END OF PROJECT"]) {
        end = index
      }
      index -= 1
    }
    while start < end, line(start).allSatisfy(\.isWhitespace) { start += 1 }
    while end > start, line(end - 1).allSatisfy(\.isWhitespace) { end -= 1 }
    return start..<end
  }
}
