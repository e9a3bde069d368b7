import Foundation

/// What `hl` highlights.
package enum HighlightSpan: Sendable, Hashable {
  /// The match the last search moved to.
  case match
  /// From the first match of the first words at or after the page's first row to the end of
  /// the first match of the second after it.
  case between(String, String)

  /// The span and note of what follows `hl`: `NOTE` (the match), or `/FROM/ /TO/ NOTE`; nil
  /// when the second search is missing or a search is empty.
  static func parse(_ text: String) -> (span: HighlightSpan, note: String)? {
    guard text.hasPrefix("/") else { return (.match, text) }
    func search(_ text: Substring) -> (String, Substring)? {
      guard text.first == "/" else { return nil }
      let body = text.dropFirst()
      guard let end = body.firstIndex(of: "/") else { return nil }
      let words = body[..<end].trimmingCharacters(in: .whitespaces)
      return words.isEmpty ? nil : (words, body[body.index(after: end)...])
    }
    guard let (from, rest) = search(text[...]),
      let (to, after) = search(rest.drop { $0 == " " })
    else { return nil }
    return (.between(from, to), after.trimmingCharacters(in: .whitespaces))
  }

  /// The bytes the span covers in `pager` now, or nil after one line on `output` saying why
  /// there are none.
  func range(in pager: Pager, output: TerminalOutput) -> Range<Int>? {
    switch self {
    case .match:
      guard let match = pager.match, !match.isEmpty else {
        output.printError(
          "error: no match to highlight: search with /word first, or hl /FROM/ /TO/ [note]")
        return nil
      }
      return match
    case .between(let from, let to):
      let end = pager.visible.upperBound
      guard let start = pager.text.find(from, in: pager.top..<end) else {
        output.printError("error: not found from this page on: \(Sanitizer.sanitize(from))")
        return nil
      }
      guard let last = pager.text.find(to, in: start.upperBound..<end) else {
        output.printError(
          "error: not found after \(BookmarkText.shortQuote(from)): \(Sanitizer.sanitize(to))")
        return nil
      }
      return start.lowerBound..<last.upperBound
    }
  }

  /// The words of `range` in `text`, every run of whitespace one space: a passage as one line.
  static func passage(_ range: Range<Int>, in text: BookText) -> String {
    text.bytes.string(range).split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
