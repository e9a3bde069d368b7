import Foundation

/// Finds what a query that found (almost) nothing probably meant: each `search` or `topic`
/// term replaced by the catalogue's own spellings near it, kept only when the changed query
/// finds more books. Its own type so that the engine answers and this one proposes.
struct SpellingSuggester {
  /// The catalogue's words, with how often each occurs.
  let vocabulary: Vocabulary
  /// How many books a query finds (the engine's own count).
  let matches: (QueryString) -> Int

  /// Up to `limit` proposals for `query`, fewest edits first, then most books; `known` is how
  /// many books the query itself finds, when the caller has counted them already.
  func suggestions(_ query: QueryString, found known: Int?, limit: Int) -> [Suggestion] {
    func count(_ pairs: [(key: String, value: String)]) -> Int {
      let raw = pairs.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }
        .joined(separator: "&")
      return matches(QueryString(raw))
    }
    let parameters = ["search", "topic"].filter { !(query.value($0) ?? "").isEmpty }
    guard !parameters.isEmpty else { return [] }
    let found = known ?? count(query.pairs)
    guard found <= GutendexEngine.suggestionThreshold else { return [] }
    let words = vocabulary
    // Each proposal keeps its number of edits: fewer edits rank first (the reading nearest to
    // what was typed), then more books ("war and peace", 36, over "war and seas", 14).
    var results: [(suggestion: Suggestion, edits: Int)] = []
    for parameter in parameters {
      guard let value = query.value(parameter) else { continue }
      let terms = value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      let candidates = terms.map { words.replacements(for: $0) }
      var alternatives: [(terms: [String], edits: Int)] = []
      for (index, options) in candidates.enumerated() {
        for option in options {
          var changed = terms
          changed[index] = option.word
          alternatives.append((changed, option.edits))
        }
      }
      if candidates.filter({ !$0.isEmpty }).count > 1 {
        let best = zip(terms, candidates).map { term, options in options.first ?? (term, 0) }
        alternatives.append((best.map(\.word), best.map(\.edits).reduce(0, +)))
      }
      for alternative in alternatives {
        let text = alternative.terms.joined(separator: " ")
        // The server reads the last value of a parameter: appending one overrides it.
        let total = count(query.pairs + [(parameter, text)])
        if total > found {
          results.append(
            (Suggestion(parameter: parameter, value: text, count: total), alternative.edits))
        }
      }
    }
    var seen = Set<String>()
    return results.sorted { ($0.edits, -$0.suggestion.count) < ($1.edits, -$1.suggestion.count) }
      .map(\.suggestion)
      .filter { seen.insert($0.parameter + "=" + $0.value).inserted }
      .prefix(limit).map { $0 }
  }

  /// Percent-encodes everything but letters and digits, for a query the engine parses back.
  private static func encode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
  }
}
