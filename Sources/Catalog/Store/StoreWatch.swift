import Foundation
import GRDB
import Synchronization

/// Tells about every commit to one store file: this process's at once, other processes' when
/// ``foreignCommits()`` is asked.
///
/// SQLite does not notify one process of another's commits, and GRDB's observations see only
/// the writes of their own pool. So there are two sources: a `DatabaseRegionObservation` on
/// the pool, called on the writer's queue as each of this process's transactions commits (it
/// names the tables that changed), and `PRAGMA data_version` on the pool's writer connection,
/// which changes when any *other* connection (another process: this process writes only
/// through that one connection) has committed since the last time it was read. The owner polls
/// the second one on its own clock.
final class StoreWatch: Sendable {
  private let cancellables: [AnyDatabaseCancellable]
  private let pool: any DatabaseWriter
  private let path: String
  /// The last `data_version` read, nil before the first read.
  private let version = Mutex<Int64?>(nil)
  /// What a commit of another process may have changed (it names no tables).
  let foreignChange: StoreChange

  /// Watches `pool`'s tables, each region reported as its change; `onChange` runs on the
  /// writer's queue right after a commit of this process.
  init(
    pool: any DatabaseWriter, path: String, regions: [(tables: [String], change: StoreChange)],
    onChange: @escaping @Sendable (StoreChange) -> Void
  ) {
    self.pool = pool
    self.path = path
    foreignChange = regions.reduce(into: StoreChange()) { $0.formUnion($1.change) }
    cancellables = regions.map { region in
      let change = region.change
      return DatabaseRegionObservation(tracking: region.tables.map { Table($0) })
        .start(in: pool, onError: { _ in }, onChange: { _ in onChange(change) })
    }
  }

  /// Whether another process committed to the file since the last call (false on the first).
  func foreignCommits() async throws(StoreError) -> Bool {
    let current: Int64
    do {
      current = try await pool.writeWithoutTransaction { db in
        try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
      }
    } catch is CancellationError {
      return false
    } catch {
      throw StoreDatabase.mapError(error, path: path)
    }
    return version.withLock { last in
      defer { last = current }
      return last.map { $0 != current } ?? false
    }
  }

  /// Stops the observations; nothing is reported after it returns.
  func stop() {
    for cancellable in cancellables { cancellable.cancel() }
  }

  deinit {
    stop()
  }
}

extension FavoritesStore {
  /// Watches the favourites and the library (both in this file).
  func watch(onChange: @escaping @Sendable (StoreChange) -> Void) -> StoreWatch {
    StoreWatch(
      pool: pool, path: databaseURL.path,
      regions: [
        (["favorite", "store_meta"], .favorites), (["download", "reading_position"], .library),
      ], onChange: onChange)
  }
}

extension PageCache {
  /// Watches the cached pages.
  func watch(onChange: @escaping @Sendable (StoreChange) -> Void) -> StoreWatch {
    StoreWatch(
      pool: pool, path: databaseURL.path, regions: [(["page"], .cache)], onChange: onChange)
  }
}
