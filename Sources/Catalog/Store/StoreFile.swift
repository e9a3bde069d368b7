import Foundation
import GRDB

/// A store backed by one SQLite file, whose reads and writes report failures naming that file.
protocol StoreFile {
  var pool: any DatabaseWriter { get }
  var databaseURL: URL { get }
  /// The damage check of the file before writes; nil for a disposable file (the page cache,
  /// which is refused at open when damaged and can be cleared at any time).
  var integrity: IntegrityCheck? { get }
}

extension StoreFile {
  func reading<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    do {
      return try pool.read(body)
    } catch {
      let mapped = StoreDatabase.mapError(error, path: databaseURL.path)
      integrity?.note(mapped)
      throw mapped
    }
  }

  /// Runs `body` in one write transaction, after the damage check: a damaged file is refused
  /// whole and left as it is.
  @discardableResult
  func writing<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    let path = databaseURL.path
    let integrity = self.integrity
    do {
      return try pool.write { db in
        try integrity?.checkBeforeWriting(db, path: path)
        return try body(db)
      }
    } catch {
      let mapped = StoreDatabase.mapError(error, path: path)
      integrity?.note(mapped)
      throw mapped
    }
  }
}

extension FavoritesStore: StoreFile {}

extension PageCache: StoreFile {
  var integrity: IntegrityCheck? { nil }
}

/// Closes `pool` with its writer last: GRDB closes the writer first (its issue 739), and a
/// read-only reader closing last cannot checkpoint, so the WAL would be left behind. With the
/// idle readers released first, the writer is the last connection and SQLite checkpoints the
/// WAL into the database and removes it.
func closeLast(_ pool: any DatabaseWriter) {
  (pool as? DatabasePool)?.releaseMemory()
  try? pool.close()
}
