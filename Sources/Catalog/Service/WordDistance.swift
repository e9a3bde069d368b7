import GutendexEngine

/// How far apart two words are, for the front's own "did you mean" (a mistyped command or
/// language): the distance the catalogue's suggestions use, so both forgive the same typos.
public enum WordDistance {
  /// The optimal-string-alignment Damerau-Levenshtein distance between `a` and `b`, or nil
  /// once it is known to exceed `limit`.
  public static func between<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int)
    -> Int?
  {
    EditDistance.between(a, b, limit: limit)
  }

  /// The largest distance worth suggesting for a word of `length` letters: 1, or 2 from 7 on.
  public static func tolerance(forLength length: Int) -> Int {
    EditDistance.tolerance(forLength: length)
  }
}
