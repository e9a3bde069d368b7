import GRDB
import GRDBSQLite

/// SQLite's write lock on a damaged file, held while `doctor --repair` reads it and swaps
/// the new file in, so a process that still has the old file open cannot commit to it
/// meanwhile (its write would be lost with the old file).
final class StoreWriteLock {
  private let queue: DatabaseQueue
  private var released = false

  private init(queue: DatabaseQueue) {
    self.queue = queue
  }

  /// Takes the lock (waiting as a writer does); nil when SQLite cannot open the file at all
  /// (then no gutenberg process can write to it either). Taking it writes nothing to the file.
  static func take(_ path: String, schema: StoreDatabase.Schema) throws(StoreError)
    -> StoreWriteLock?
  {
    var configuration = StoreDatabase.configuration(schema, busyWait: BusyWait())
    // The transaction outlives the access that begins it: it is the lock.
    configuration.allowsUnsafeTransactions = true
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      if case .corrupt = StoreDatabase.mapError(error, path: path) { return nil }
      throw StoreDatabase.mapError(error, path: path)
    }
    do {
      try queue.writeWithoutTransaction { db in
        // The file is renamed while this connection is open: closing must not delete the
        // WAL and shared-memory files by their old names, which then belong to the new file.
        var persist: Int32 = 1
        _ = sqlite3_file_control(
          db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        try db.execute(sql: "BEGIN IMMEDIATE")
      }
    } catch {
      try? queue.close()
      if case .corrupt = StoreDatabase.mapError(error, path: path) { return nil }
      throw StoreDatabase.mapError(error, path: path)
    }
    return StoreWriteLock(queue: queue)
  }

  /// Ends the transaction (it wrote nothing) and closes the connection; once.
  func release() {
    if released { return }
    released = true
    try? queue.writeWithoutTransaction { db in
      if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
    }
    try? queue.close()
  }
}
