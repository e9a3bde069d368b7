import Foundation

/// Search: forward from the page, wrapping around to the beginning, the match marked.
extension Pager {
  /// What a search did.
  package enum SearchOutcome: Sendable, Equatable {
    /// Found after the first row.
    case found
    /// Found only by going on from the beginning of the text.
    case wrapped
    /// Not in the text; the position is kept.
    case notFound
  }

  /// Finds `word` (case- and accent-insensitive) after the first row, going on from the
  /// beginning when it is not found before the end, and moves to the row holding it.
  /// `backward` (`?word`, `N`): the last match before the first row, going on from the end
  /// when there is none.
  package mutating func search(_ word: String, backward: Bool = false) -> SearchOutcome {
    lastSearch = word
    let needle = word.trimmingCharacters(in: .whitespaces)
    guard !needle.isEmpty, !visible.isEmpty else { return .notFound }
    if backward {
      if let found = text.findLast(needle, in: visible.lowerBound..<top) {
        show(found)
        return .found
      }
      if let found = text.findLast(needle, in: top..<visible.upperBound) {
        show(found)
        return .wrapped
      }
      return .notFound
    }
    var cursor = cursor(at: top)
    let from = advance(&cursor) ? cursor.start : visible.upperBound
    if let found = text.find(needle, in: from..<visible.upperBound) {
      show(found)
      return .found
    }
    // From the beginning up to (and including) the first row.
    if let found = text.find(needle, in: visible.lowerBound..<from) {
      show(found)
      return .wrapped
    }
    return .notFound
  }

  private mutating func show(_ found: Range<Int>) {
    top = rowStart(containing: found.lowerBound)
    match = found
  }

  /// `row` with each match of `word` marked: reverse video when colour is on, else between
  /// `»` and `«`, the row wrapped again if the marks make it too wide.
  static func mark(_ word: String, in row: String, width: Int, style: Style) -> [String] {
    let needle = word.trimmingCharacters(in: .whitespaces)
    var marked = ""
    var rest = row[...]
    var found = false
    while let range = rest.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]),
      !range.isEmpty
    {
      marked += rest[..<range.lowerBound]
      let text = String(rest[range])
      marked += style.isEnabled ? style.reverse(text) : "»" + text + "«"
      rest = rest[range.upperBound...]
      found = true
    }
    marked += rest
    guard found else { return [row] }
    guard !style.isEnabled, DisplayWidth.cells(marked) > width else { return [marked] }
    let indent = marked.prefix { $0 == " " }
    return TextWrapper.wrap(
      String(marked.dropFirst(indent.count)), toCells: width, firstPrefix: String(indent),
      prefix: String(indent))
  }
}
