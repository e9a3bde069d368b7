import Foundation

extension GutendexEngine {
  /// The most books a query may find and still get suggestions.
  public static let suggestionThreshold = 3

  /// What the person who sent `rawQuery` (a `/books/` query string, as sent) probably meant,
  /// when its `search` or `topic` finds ``suggestionThreshold`` books or fewer: the same query
  /// with words spelled as the catalogue spells them (accents, small typos), the most books
  /// first. Never changes an answer; empty when nothing finds more.
  /// `found` is how many books the query finds, when the caller knows it already.
  public func suggestions(forQuery rawQuery: String, found: Int? = nil, limit: Int = 3)
    -> [Suggestion]
  {
    suggestions(rawQuery, found: found, limit: limit)
  }

  /// The catalogue's words: the index's own (nothing to read), else built on first use and kept
  /// for the life of the engine.
  var vocabulary: Vocabulary {
    vocabularyCache.withLock { cached in
      if let cached { return cached }
      var built: Vocabulary
      switch storage {
      case .memory(let books): built = Vocabulary(books)
      case .mapped(let books): built = books.storedVocabulary ?? Vocabulary(books)
      }
      // The delta's words count with the base's (its index carries its own vocabulary).
      if let delta { built = built.adding(delta.storedVocabulary ?? Vocabulary(delta)) }
      cached = built
      return built
    }
  }

  private func suggestions(_ rawQuery: String, found known: Int?, limit: Int) -> [Suggestion] {
    let query = QueryString(rawQuery)
    func count(_ pairs: [(key: String, value: String)]) -> Int {
      let raw = pairs.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }
        .joined(separator: "&")
      return matchCount(QueryString(raw))
    }
    let parameters = ["search", "topic"].filter { !(query.value($0) ?? "").isEmpty }
    guard !parameters.isEmpty else { return [] }
    let found = known ?? count(query.pairs)
    guard found <= Self.suggestionThreshold else { return [] }
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
