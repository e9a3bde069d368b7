/// What an import did: favourites added, snapshots changed, and entries already identical.
public struct ImportSummary: Sendable, Hashable {
  /// Books that were not favourites before.
  public var added: Int
  /// Existing favourites whose snapshot changed (their `added_at` is kept).
  public var updated: Int
  /// Existing favourites whose snapshot was already the same.
  public var unchanged: Int

  /// Makes a summary; all counts default to zero.
  public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0) {
    self.added = added
    self.updated = updated
    self.unchanged = unchanged
  }
}
