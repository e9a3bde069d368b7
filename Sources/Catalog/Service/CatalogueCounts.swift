/// How many books the local catalogue holds, counted as `status` shows them.
public struct CatalogueCounts: Sendable, Hashable {
  /// Every book it answers with.
  public let all: Int
  /// The books of its base (the embedded snapshot, or the last feed refresh).
  public let base: Int
  /// The books syncs added since the base (not counting new copies of base books).
  public let added: Int
}
