/// What an import did: favourites added, snapshots changed, and entries already identical.
public struct ImportSummary: Sendable, Hashable {
  /// Books that were not favourites before.
  public var added: Int
  /// Existing favourites whose snapshot changed (their `added_at` is kept).
  public var updated: Int
  /// Existing favourites whose snapshot was already the same.
  public var unchanged: Int

  /// Bookmarks this store did not have.
  public var bookmarksAdded = 0
  /// Bookmarks this store had, replaced by a newer edit (their note) from the document.
  public var bookmarksUpdated = 0
  /// Books in the document with notes but no star, whose notes were merged (they are not
  /// made favourites).
  public var notesOnly = 0
  /// Reading positions taken from the document because they were newer than this store's.
  public var positionsUpdated = 0

  /// Makes a summary; all counts default to zero.
  public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0) {
    self.added = added
    self.updated = updated
    self.unchanged = unchanged
  }
}
