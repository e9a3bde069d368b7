/// Which part of the user's data changed: what a view model must read again.
public struct StoreChange: OptionSet, Sendable, Hashable {
  /// The bits of the set.
  public let rawValue: Int

  /// A set from its bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// The favourites (added, removed, refreshed, imported).
  public static let favorites = StoreChange(rawValue: 1 << 0)
  /// The library: downloads and reading positions.
  public static let library = StoreChange(rawValue: 1 << 1)
  /// The page cache.
  public static let cache = StoreChange(rawValue: 1 << 2)
}
