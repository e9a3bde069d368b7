import Foundation
import GRDB

/// An SQLite file held open by this process after one read, as another program using it would
/// (a `gutenberg` browser left running, say), until ``close()``.
public final class OpenDatabase: Sendable {
  private let queue: DatabaseQueue

  /// Opens the database at `path` and reads its schema; returns the number of schema rows.
  public init(path: String) throws {
    queue = try DatabaseQueue(path: path)
    let rows = try queue.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
    }
    guard rows > 0 else { throw CocoaError(.fileReadCorruptFile) }
  }

  /// Closes the connection.
  public func close() throws {
    try queue.close()
  }
}
