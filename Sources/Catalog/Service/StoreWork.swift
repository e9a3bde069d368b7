import Dispatch
import Foundation

/// Runs store work off the caller's actor, and lets a cancelled caller end a wait for a lock.
///
/// GRDB's synchronous calls block the thread they run on, for up to ``StoreDatabase/busyTimeout``
/// when another process holds the write lock. Run on the main actor, that froze the prompt and
/// made Ctrl-C wait too. Here the work runs on a queue of its own; if the awaiting task is
/// cancelled, ``BusyWait`` stops retrying the lock, the SQLite call fails at once, and the caller
/// sees `.cancelled`. Work that already holds its lock is never interrupted, so a write either
/// commits whole or not at all.
enum StoreWork {
  /// Store work blocks its thread, so it must not occupy the cooperative pool's few threads.
  private static let queue = DispatchQueue(
    label: "gutenberg.store", qos: .userInitiated, attributes: .concurrent)

  /// Runs `body` on the store queue; a cancelled caller ends any wait for a lock.
  static func run<T: Sendable>(
    on busyWait: BusyWait, _ body: @escaping @Sendable () throws(StoreError) -> T
  ) async throws(CatalogError) -> T {
    if Task.isCancelled { throw .cancelled }
    let interrupt = busyWait.interrupt()
    let result: Result<T, StoreError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        queue.async {
          let outcome = Result { () throws(StoreError) -> T in try body() }
          interrupt.finish()
          continuation.resume(returning: outcome)
        }
      }
    } onCancel: {
      interrupt.fire()
    }
    switch result {
    case .success(let value):
      return value
    case .failure(let error):
      // A lock wait ended by Ctrl-C fails as "database is locked"; the user asked for it.
      if interrupt.fired { throw .cancelled }
      throw .store(error)
    }
  }
}
