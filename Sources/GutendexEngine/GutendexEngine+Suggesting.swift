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
    var results: [Suggestion] = []
    for parameter in parameters {
      guard let value = query.value(parameter) else { continue }
      let terms = value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      let replacements = terms.map { Self.replacement(for: $0, in: words) }
      var alternatives = replacements.indices.compactMap { index -> [String]? in
        guard let replacement = replacements[index] else { return nil }
        var changed = terms
        changed[index] = replacement
        return changed
      }
      if alternatives.count > 1 {
        alternatives.append(zip(terms, replacements).map { $1 ?? $0 })
      }
      for alternative in alternatives {
        let text = alternative.joined(separator: " ")
        // The server reads the last value of a parameter: appending one overrides it.
        let total = count(query.pairs + [(parameter, text)])
        if total > found {
          results.append(Suggestion(parameter: parameter, value: text, count: total))
        }
      }
    }
    var seen = Set<String>()
    return results.sorted { $0.count > $1.count }
      .filter { seen.insert($0.parameter + "=" + $0.value).inserted }
      .prefix(limit).map { $0 }
  }

  /// The word the catalogue more likely means by `term`: the same letters with accents, else
  /// a word a typo or two away that is much more common; nil when the term is fine as it is.
  static func replacement(for term: String, in words: Vocabulary) -> String? {
    let folded = UpperFold.bytes(term)
    guard folded.count >= 3 else { return nil }
    let own = words.frequency(folded)
    if let accented = words.accentVariants(of: folded).first(where: { $0.frequency > own }) {
      return String(decoding: accented.bytes, as: UTF8.self).lowercased()
    }
    // A word the catalogue uses a few times is probably meant; only rare spellings are mended.
    guard own <= 3 else { return nil }
    let better = words.neighbours(of: folded).first { $0.word.frequency > 2 * max(own, 1) }
    return better.map { String(decoding: $0.word.bytes, as: UTF8.self).lowercased() }
  }

  /// Percent-encodes everything but letters and digits, for a query the engine parses back.
  private static func encode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
  }
}
