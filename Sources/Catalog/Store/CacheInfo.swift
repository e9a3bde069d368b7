import Foundation

/// What the ``PageCache`` holds: entry count, total body bytes, oldest and newest fetch, file.
public struct CacheInfo: Sendable, Hashable {
  /// How many pages are cached.
  public var entries: Int
  /// The total size of the stored page bodies (not the database file).
  public var bytes: Int
  /// The earliest fetch time among the entries; nil when empty.
  public var oldest: Date?
  /// The latest fetch time among the entries; nil when empty.
  public var newest: Date?
  /// The cache database file.
  public var path: URL

  /// Makes a summary (the cache makes these; tests and previews may too).
  public init(entries: Int, bytes: Int, oldest: Date?, newest: Date?, path: URL) {
    self.entries = entries
    self.bytes = bytes
    self.oldest = oldest
    self.newest = newest
    self.path = path
  }
}
