import Catalog

/// The one line under a list that found few books: what the embedded catalogue proposes and
/// the key that runs it, `did you mean: les misérables (11 books)? type ' to search it`.
package struct SuggestionLine: Sendable, Equatable {
  /// The key that runs the proposal in the interactive browser.
  package static let key = "'"

  /// The proposal shown.
  package var suggestion: SearchSuggestion

  /// The line for `suggestion`.
  package init(_ suggestion: SearchSuggestion) {
    self.suggestion = suggestion
  }
}

extension SuggestionLine: LineRendering {
  /// One line: the proposed words are cut to fit `width` (the whole line only when even the
  /// count and the key do not fit).
  package func lines(width: Int, style: Style) -> [String] {
    let lead = suggestion.field == .topic ? "did you mean: topic " : "did you mean: "
    let tail =
      " (\(TextFormat.plural(suggestion.count, "book")))? type \(Self.key) to search it"
    let room = max(8, width - DisplayWidth.cells(lead) - DisplayWidth.cells(tail))
    let value = DisplayWidth.truncate(Sanitizer.sanitize(suggestion.value), toCells: room)
    return [DisplayWidth.truncate(lead + value + tail, toCells: max(width, 1))]
  }
}
