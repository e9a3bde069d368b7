import Catalog
import Foundation

/// "Did you mean": when a search or topic finds few books, the local catalogue (its synced
/// books included) proposes the spellings it knows, through the service. The proposals never
/// change an answer; the person chooses.
extension GutenbergApp {
  /// `did you mean: les misérables (11 books)?`, or nil when there is nothing to propose.
  nonisolated static func suggestionLine(_ suggestions: [SearchSuggestion]) -> String? {
    guard !suggestions.isEmpty else { return nil }
    let named = suggestions.map { suggestion in
      let value = Sanitizer.sanitize(suggestion.value)
      let text = suggestion.field == .topic ? "topic \(value)" : value
      return "\(text) (\(suggestion.count) \(suggestion.count == 1 ? "book" : "books"))"
    }
    return "did you mean: \(named.joined(separator: ", or "))?"
  }
}
