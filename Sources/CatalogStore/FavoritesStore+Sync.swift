import Foundation
import GRDB
import Gutendex

extension FavoritesStore {
  /// The ids of every favourite, ascending, read with GRDB's async access (no thread blocked).
  public func favoriteIDsAsync() async throws(StoreError) -> [Int] {
    do {
      return try await pool.read { db in
        try Int.fetchAll(db, sql: "SELECT id FROM favorite ORDER BY id")
      }
    } catch {
      throw StoreDatabase.mapError(error, path: databaseURL.path)
    }
  }

  /// ``applyRefresh(books:missingIDs:at:)`` with GRDB's async access, for a sync's holdings.
  public func applyRefreshAsync(books: [Book], missingIDs: [Int], at date: Date)
    async throws(StoreError)
  {
    let refreshedAt = StoreTimestamp.milliseconds(date)
    do {
      try await pool.write { db in
        for id in missingIDs {
          try db.execute(
            sql: "UPDATE favorite SET missing_on_server = 1 WHERE id = ?", arguments: [id])
        }
        for book in books {
          try Self.updateSnapshot(book, db)
          try db.execute(
            sql: "UPDATE favorite SET refreshed_at = ?, missing_on_server = 0 WHERE id = ?",
            arguments: [refreshedAt, book.id])
        }
        try db.execute(
          sql: "INSERT OR REPLACE INTO store_meta (key, value) VALUES ('last_refresh', ?)",
          arguments: [refreshedAt])
      }
    } catch {
      throw StoreDatabase.mapError(error, path: databaseURL.path)
    }
  }

  /// The ids of every downloaded book, ascending.
  public func libraryIDsAsync() async throws(StoreError) -> [Int] {
    do {
      return try await pool.read { db in
        try Int.fetchAll(db, sql: "SELECT DISTINCT id FROM download ORDER BY id")
      }
    } catch {
      throw StoreDatabase.mapError(error, path: databaseURL.path)
    }
  }
}
