import GRDB

extension FavoritesStore {
  /// "GTBF" in the SQLite header marks a gutenberg favourites file.
  static let applicationID: UInt32 = 0x4754_4246

  /// The favourites file's schema and migrations; commits are durable.
  static let schema = StoreDatabase.Schema(
    applicationID: applicationID, name: "favorites", durable: true,
    migrator: {
      var migrator = DatabaseMigrator()
      migrator.registerMigration("v1") { db in
        // Dates are integer milliseconds since 1970 UTC; raw_json is the server's bytes.
        // The application id is set in the same transaction as the tables (see StoreDatabase).
        try db.execute(
          sql: """
            CREATE TABLE favorite (
              id INTEGER PRIMARY KEY,
              added_at INTEGER NOT NULL,
              refreshed_at INTEGER,
              missing_on_server INTEGER NOT NULL DEFAULT 0,
              title_key TEXT NOT NULL,
              author_key TEXT NOT NULL,
              raw_json BLOB NOT NULL
            );
            CREATE INDEX favorite_by_added ON favorite (added_at, id);
            CREATE INDEX favorite_by_title ON favorite (title_key, id);
            CREATE INDEX favorite_by_author ON favorite (author_key, title_key, id);
            CREATE TABLE store_meta (key TEXT PRIMARY KEY NOT NULL, value);
            PRAGMA application_id = \(applicationID);
            """)
      }
      return migrator
    })
}
