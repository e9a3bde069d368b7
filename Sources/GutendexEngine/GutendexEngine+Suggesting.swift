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
    SpellingSuggester(vocabulary: vocabulary, matches: matchCount)
      .suggestions(QueryString(rawQuery), found: known, limit: limit)
  }
}
