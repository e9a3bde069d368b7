/// How far apart two words are, for "did you mean" suggestions.
public enum EditDistance {
  /// The optimal-string-alignment Damerau-Levenshtein distance between `a` and `b` (insertions,
  /// deletions, substitutions and swaps of two neighbours each cost 1), or nil once it is known
  /// to exceed `limit` (most vocabulary words are rejected after a row or two).
  public static func between<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int)
    -> Int?
  {
    var rows = Rows(length: b.count)
    return rows.distance(a, b, limit: limit)
  }

  /// The largest distance worth suggesting for a word of `length` letters: 1, or 2 from 7 on.
  public static func tolerance(forLength length: Int) -> Int {
    length >= 7 ? 2 : 1
  }

  /// The three rows of the distance table, kept between calls so comparing one word with a
  /// whole vocabulary allocates nothing per word.
  struct Rows {
    private var twoBack: [Int]
    private var oneBack: [Int]
    private var row: [Int]

    /// Rows for words of about `length` elements (they grow when needed).
    init(length: Int) {
      twoBack = [Int](repeating: 0, count: length + 1)
      oneBack = twoBack
      row = twoBack
    }

    /// See ``EditDistance/between(_:_:limit:)``.
    mutating func distance<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int)
      -> Int?
    {
      guard abs(a.count - b.count) <= limit else { return nil }
      if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
      if row.count < b.count + 1 { self = Rows(length: b.count) }
      for j in 0...b.count { oneBack[j] = j }
      for i in 1...a.count {
        row[0] = i
        var rowMinimum = i
        for j in 1...b.count {
          let cost = a[i - 1] == b[j - 1] ? 0 : 1
          var value = min(oneBack[j] + 1, row[j - 1] + 1, oneBack[j - 1] + cost)
          if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
            value = min(value, twoBack[j - 2] + 1)
          }
          row[j] = value
          rowMinimum = min(rowMinimum, value)
        }
        if rowMinimum > limit { return nil }
        swap(&twoBack, &oneBack)
        swap(&oneBack, &row)
      }
      return oneBack[b.count] <= limit ? oneBack[b.count] : nil
    }
  }
}
