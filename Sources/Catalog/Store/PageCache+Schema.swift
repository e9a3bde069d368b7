import GRDB

extension PageCache {
  /// "GTBC" in the SQLite header marks a gutenberg page cache file.
  static let applicationID: UInt32 = 0x4754_4243

  /// The page cache's schema and migrations; commits need not survive power loss.
  static let schema = StoreDatabase.Schema(
    applicationID: applicationID, name: "pages", durable: false,
    steps: [
      (
        // key is BookQuery.cacheKey + "#" + page; fetched_at is integer milliseconds.
        "v1",
        """
        CREATE TABLE page (
          key TEXT PRIMARY KEY NOT NULL,
          fetched_at INTEGER NOT NULL,
          body BLOB NOT NULL,
          size INTEGER NOT NULL
        );
        CREATE INDEX page_by_fetched ON page (fetched_at, key);
        PRAGMA application_id = \(applicationID);
        """
      )
    ])
}
