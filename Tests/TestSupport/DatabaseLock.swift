import Foundation
import GRDB

/// Holds the write lock of an SQLite file on a thread of its own, as another process would
/// (another `gutenberg` in the middle of an import, say), until ``unlock()``.
public final class DatabaseLock: Sendable {
  private let held = DispatchSemaphore(value: 0)
  private let release = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)

  /// Takes the lock (`BEGIN IMMEDIATE`) on the database at `path`; returns once it is held.
  public init(path: String) throws {
    var configuration = Configuration()
    configuration.busyMode = .immediateError
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    Thread.detachNewThread { [held, release, done] in
      try? queue.inDatabase { db in
        try db.execute(sql: "BEGIN IMMEDIATE")
        held.signal()
        release.wait()
        try db.execute(sql: "ROLLBACK")
      }
      // Closed, as a process that is done with the file is: an open connection is one more
      // process using the file (`doctor --repair` refuses to swap it under one).
      try? queue.close()
      done.signal()
    }
    held.wait()
  }

  /// Lets the lock go (rolling back: nothing was written), closes the connection and waits
  /// until both are done.
  public func unlock() {
    release.signal()
    done.wait()
  }
}
