/// How many books the synced local catalogue holds, as its state records them.
public struct SyncCounts: Sendable, Hashable {
  /// Books in all.
  public var books: Int
  /// Books of the base (the snapshot, or the last feed refresh).
  public var baseBooks: Int
  /// Books added since the base was built.
  public var addedBooks: Int
  /// Books whose record came from the server.
  public var syncedBooks: Int
}
