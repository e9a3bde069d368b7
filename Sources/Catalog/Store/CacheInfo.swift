import Foundation

/// What the ``PageCache`` holds: entry count, total body bytes, oldest and newest fetch, file.
public struct CacheInfo: Sendable, Hashable {
  public var entries: Int
  /// The total size of the stored page bodies (not the database file).
  public var bytes: Int
  public var oldest: Date?
  public var newest: Date?
  /// The cache database file.
  public var path: URL

  public init(entries: Int, bytes: Int, oldest: Date?, newest: Date?, path: URL) {
    self.entries = entries
    self.bytes = bytes
    self.oldest = oldest
    self.newest = newest
    self.path = path
  }
}
