import Foundation
import GRDB
import Gutendex

extension FavoritesStore {
  /// The ids of every favourite, ascending, read with GRDB's async access (no thread blocked).
  func favoriteIDsAsync() async throws(StoreError) -> [Int] {
    do {
      return try await pool.read { db in
        try Int.fetchAll(db, sql: "SELECT id FROM favorite ORDER BY id")
      }
    } catch {
      throw StoreDatabase.mapError(error, path: databaseURL.path)
    }
  }

  /// ``applyRefresh(books:missingIDs:at:)`` with GRDB's async access, for a sync's holdings.
  func applyRefreshAsync(books: [Book], missingIDs: [Int], at date: Date)
    async throws(StoreError)
  {
    let refreshedAt = StoreTimestamp.milliseconds(date)
    let (integrity, path) = (self.integrity, databaseURL.path)
    do {
      try await pool.write { db in
        try integrity?.checkBeforeWriting(db, path: path)
        try Self.applyRefresh(books: books, missingIDs: missingIDs, refreshedAt: refreshedAt, db)
      }
    } catch {
      throw StoreDatabase.mapError(error, path: databaseURL.path)
    }
  }

  /// The ids of every downloaded book, ascending.
  func libraryIDsAsync() async throws(StoreError) -> [Int] {
    do {
      return try await pool.read { db in
        try Int.fetchAll(db, sql: "SELECT DISTINCT id FROM download ORDER BY id")
      }
    } catch {
      throw StoreDatabase.mapError(error, path: databaseURL.path)
    }
  }
}
