import Catalog

/// "Did you mean" for a mistyped command name.
package enum ClosestWord {
  /// The word of `candidates` nearest to `typed` (case ignored) within a small number of edits
  /// (1, or 2 from 7 letters on), the first listed on a tie; nil when none is that near.
  package static func nearest(to typed: String, among candidates: [String]) -> String? {
    let word = Array(typed.lowercased())
    let limit = WordDistance.tolerance(forLength: max(word.count, 4))
    var best: (word: String, distance: Int)?
    for candidate in candidates where candidate.lowercased() != typed.lowercased() {
      guard let distance = WordDistance.between(word, Array(candidate.lowercased()), limit: limit)
      else { continue }
      if best == nil || distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.word
  }
}
