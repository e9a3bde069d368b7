/// The spellings a misspelt term may mean: a question of the vocabulary alone (its words and
/// how often each is used), asked by the engine's suggestions.
extension Vocabulary {
  /// The most candidate words tried for one misspelt term (each costs a query).
  static let candidatesPerTerm = 4

  /// The words the catalogue more likely means by `term`, with the edits each takes: the same
  /// letters with accents (no edit), else words a typo or two away that are much more common,
  /// nearest first; empty when the term is fine as it is. Several are returned because the most
  /// common near word is often not the one meant ("dik": "did" is commoner than "dick"); the
  /// caller runs each and keeps those that find books.
  func replacements(for term: String) -> [(word: String, edits: Int)] {
    let folded = UpperFold.bytes(term)
    guard folded.count >= 3 else { return [] }
    let own = frequency(folded)
    if let accented = accentVariants(of: folded).first(where: { $0.frequency > own }) {
      return [(String(decoding: accented.bytes, as: UTF8.self).lowercased(), 0)]
    }
    // A word the catalogue uses a few times is probably meant; only rare spellings are mended.
    guard own <= 3 else { return [] }
    return neighbours(of: folded).lazy
      // A word under 3 letters is no reading of a typo ("dik" is not "di"): searches match
      // inside words, so it would find more books while meaning nothing.
      .filter { $0.word.frequency > 2 * max(own, 1) && $0.word.bytes.count >= 3 }
      .prefix(Self.candidatesPerTerm)
      .map { (String(decoding: $0.word.bytes, as: UTF8.self).lowercased(), $0.distance) }
  }
}
