/// Titles as people read them: catalogue records leave MARC subfield markers in some titles
/// (`Peter Pan : $b [Peter and Wendy]`, `World's War Events $v Volume 3`); on screen and in
/// file names they become the punctuation they stand for (`Peter Pan: [Peter and Wendy]`,
/// `World's War Events, Volume 3`). `--json` prints the server's text as it came.
extension Sanitizer {
  /// `text` sanitised (``sanitize(_:)``), with MARC subfield markers turned into punctuation.
  package static func title(_ text: String) -> String {
    withoutSubfieldMarkers(sanitize(text))
  }

  /// Punctuation that may stand before or after a marker, kept in its place.
  private static let markerPunctuation: Set<Character> = [":", ";", "/", "=", ",", "."]

  /// `text` (already sanitised: single spaces) with every `$a`…`$z` that stands alone as a word
  /// (`$b`, or `$b:`) replaced by the punctuation around it, or the one its subfield implies:
  /// `:` before the rest of a title (`$b`), ` / ` before who made it (`$c`), `,` otherwise
  /// (`$v` volume, `$n` part). Prices and figures (`$30,000`) are left alone.
  static func withoutSubfieldMarkers(_ text: String) -> String {
    guard text.contains("$") else { return text }
    var result = text
    while let marker = firstMarker(in: result) {
      var left = String(result[..<marker.lowerBound])
      var right = String(result[result.index(after: result.index(after: marker.lowerBound))...])
      let code = result[result.index(after: marker.lowerBound)]
      trimEnd(&left)
      trimStart(&right)
      var mark: Character?
      if let first = right.first, markerPunctuation.contains(first) {
        mark = first
        right.removeFirst()
        trimStart(&right)
      }
      if let last = left.last, markerPunctuation.contains(last) {
        mark = mark ?? last
        left.removeLast()
        trimEnd(&left)
      }
      if left.isEmpty || right.isEmpty {
        result = left + right
        continue
      }
      let punctuation = mark ?? (code == "b" ? ":" : code == "c" ? "/" : ",")
      result =
        punctuation == "/" || punctuation == "="
        ? "\(left) \(punctuation) \(right)" : "\(left)\(punctuation) \(right)"
    }
    return result
  }

  /// The range of the first marker: `$` and a lower-case ASCII letter, at the start or after a
  /// space, followed by the end, a space or punctuation.
  private static func firstMarker(in text: String) -> Range<String.Index>? {
    var index = text.startIndex
    while let dollar = text[index...].firstIndex(of: "$") {
      index = text.index(after: dollar)
      guard index < text.endIndex, let code = text[index].asciiValue,
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(code)
      else { continue }
      let after = text.index(after: index)
      let startsWord = dollar == text.startIndex || text[text.index(before: dollar)] == " "
      let endsWord =
        after == text.endIndex || text[after] == " " || markerPunctuation.contains(text[after])
      if startsWord, endsWord { return dollar..<after }
    }
    return nil
  }

  private static func trimEnd(_ text: inout String) {
    while text.last == " " { text.removeLast() }
  }

  private static func trimStart(_ text: inout String) {
    while text.first == " " { text.removeFirst() }
  }
}
