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
      let engine = suggestionEngine
    else { return [] }
    return engine.suggestions(forQuery: query.atPage(1).encoded, found: found)
  }

  /// The embedded catalogue the proposals come from, mapped once per process so its words
  /// are read once (the browser asks after every search that finds few books).
  nonisolated static let suggestionEngine = try? EmbeddedCatalogue.load()

  /// The browser's proposals: ``suggestions(for:found:)`` off the main actor.
  nonisolated static let suggester: InteractiveSession.Suggester = { query, found in
    await Task.detached(priority: .userInitiated) { suggestions(for: query, found: found) }.value
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
