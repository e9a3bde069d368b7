import Catalog
import Foundation
import Gutendex
import GutendexEngine

/// "Did you mean": when a search or topic finds few books, the embedded catalogue proposes the
/// spellings it knows. The proposals never change an answer; the person chooses.
extension GutenbergApp {
  /// What the embedded catalogue proposes for `query` when it found `found` books: nothing when
  /// the query has no search or topic, found more than a handful, or nothing finds more.
  nonisolated static func suggestions(for query: BookQuery, found: Int) -> [Suggestion] {
    guard found <= GutendexEngine.suggestionThreshold, query.search != nil || query.topic != nil,
      let engine = try? EmbeddedCatalogue.load()
    else { return [] }
    return engine.suggestions(forQuery: query.atPage(1).encoded, found: found)
  }

  /// `did you mean: les misérables (11 books)?`, or nil when there is nothing to propose.
  nonisolated static func suggestionLine(_ suggestions: [Suggestion]) -> String? {
    guard !suggestions.isEmpty else { return nil }
    let named = suggestions.map { suggestion in
      let value = Sanitizer.sanitize(suggestion.value)
      let text = suggestion.parameter == "topic" ? "topic \(value)" : value
      return "\(text) (\(suggestion.count) \(suggestion.count == 1 ? "book" : "books"))"
    }
    return "did you mean: \(named.joined(separator: ", or "))?"
  }
}
