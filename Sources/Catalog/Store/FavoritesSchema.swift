import GRDB

/// The favourites file's tables (favourites, library, reading positions, bookmarks and highlights, the
/// library's contents) and their migrations, apart from the store that reads and writes them.
enum FavoritesSchema {
  /// "GTBF" in the SQLite header marks a gutenberg favourites file.
  static let applicationID: UInt32 = 0x4754_4246

  /// The favourites file's schema and migrations; commits are durable.
  static let schema = StoreDatabase.Schema(
    applicationID: applicationID, name: "favorites", durable: true,
    steps: [
      (
        // Dates are integer milliseconds since 1970 UTC; raw_json is the server's bytes.
        // The application id is set in the same transaction as the tables (see StoreDatabase).
        "v1",
        """
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
        """
      ),
      (
        // The library of downloaded books and the reading positions; favourites are untouched.
        // A book has at most one row per format; a later download of it replaces the row.
        "v2-library",
        """
        CREATE TABLE download (
          id INTEGER NOT NULL,
          format TEXT NOT NULL,
          title TEXT NOT NULL,
          path TEXT NOT NULL,
          size INTEGER NOT NULL,
          fetched_at INTEGER NOT NULL,
          validator TEXT,
          url TEXT NOT NULL,
          PRIMARY KEY (id, format)
        );
        CREATE INDEX download_by_fetched ON download (fetched_at, id);
        CREATE TABLE reading_position (
          id INTEGER PRIMARY KEY,
          line INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        """
      ),
      (
        // The reader pages by display rows: a position inside a long line is a byte offset.
        // Rows saved before keep their line (byte_offset NULL), which still opens there.
        "v3-reading-offset",
        "ALTER TABLE reading_position ADD COLUMN byte_offset INTEGER"
      ),
      (
        // A place is a byte offset plus the words found there, so it can be found again when
        // the file is re-issued (a changed header moves every offset) or another edition is
        // read. A bookmark's key is a UUID, the same on every machine it is imported into.
        "v4-bookmarks",
        """
        ALTER TABLE reading_position ADD COLUMN quote TEXT;
        CREATE TABLE bookmark (
          key TEXT PRIMARY KEY NOT NULL,
          id INTEGER NOT NULL,
          byte_offset INTEGER NOT NULL,
          quote TEXT NOT NULL,
          note TEXT NOT NULL DEFAULT '',
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX bookmark_by_book ON bookmark (id, byte_offset, created_at);
        """
      ),
      (
        // What `library search` needs of a downloaded text besides its words (where the book
        // lies without PG's header and licence, its chapters), worked out when the download
        // is recorded; kept apart from `download`, whose rows are listed often.
        "v5-library-contents",
        """
        CREATE TABLE download_contents (
          id INTEGER NOT NULL,
          format TEXT NOT NULL,
          size INTEGER NOT NULL,
          version INTEGER NOT NULL,
          body_start INTEGER NOT NULL,
          body_end INTEGER NOT NULL,
          chapters BLOB NOT NULL,
          PRIMARY KEY (id, format)
        );
        """
      ),
      (
        // A highlight is a bookmark over a passage: where it ends (NULL for a bookmark, which
        // marks a place) and its chapter's heading, kept so a note is listed with its chapter
        // once the download is gone, and travels so in an export.
        "v6-highlights",
        """
        ALTER TABLE bookmark ADD COLUMN end_offset INTEGER;
        ALTER TABLE bookmark ADD COLUMN chapter TEXT;
        """
      ),
      (
        // Both validators of a download as the server sent them, so `library update` asks
        // with If-None-Match (the ETag, weak ones too) or If-Modified-Since; `validator`
        // stays what If-Range takes. Rows from before keep NULL here and are asked by their
        // `validator`, else their file's time.
        "v7-download-validators",
        """
        ALTER TABLE download ADD COLUMN etag TEXT;
        ALTER TABLE download ADD COLUMN last_modified TEXT;
        """
      ),
    ])
}
