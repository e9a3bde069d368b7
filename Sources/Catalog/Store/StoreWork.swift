import Dispatch
import Foundation
import Synchronization

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
    _ body: @escaping @Sendable () throws(StoreError) -> T
  ) async throws(CatalogError) -> T {
    if Task.isCancelled { throw .cancelled }
    let interrupt = BusyWait.Interrupt()
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

/// How every store connection waits for another's write lock: in short sleeps, up to the busy
/// timeout, giving up at once while some cancelled store work is still running.
///
/// The busy callback cannot tell which work it serves (GRDB may run it on another thread), so
/// the stop is process-wide: while a cancelled piece of work is unfinished, every lock wait
/// gives up. Only Ctrl-C cancels store work, and it means "stop waiting" for all of it.
enum BusyWait {
  /// The cancelled store work that has not finished yet.
  private static let cancelledRunning = Atomic(0)

  /// One piece of store work's cancellation: fired at most once, finished exactly once.
  final class Interrupt: Sendable {
    private struct State {
      var fired = false
      var finished = false
    }
    private let state = Mutex(State())

    /// The awaiting task was cancelled: lock waits give up until this work finishes.
    func fire() {
      let counts = state.withLock { state -> Bool in
        guard !state.fired, !state.finished else { return false }
        state.fired = true
        return true
      }
      if counts { BusyWait.cancelledRunning.add(1, ordering: .sequentiallyConsistent) }
    }

    /// The work returned; a fired interrupt stops counting.
    func finish() {
      let counted = state.withLock { state -> Bool in
        state.finished = true
        return state.fired
      }
      if counted { BusyWait.cancelledRunning.subtract(1, ordering: .sequentiallyConsistent) }
    }

    /// Whether the awaiting task was cancelled while the work ran.
    var fired: Bool { state.withLock { $0.fired } }
  }

  /// One sleep between attempts at the lock.
  static let step: Duration = .milliseconds(10)

  /// Whether to try the lock again after `tries` failed attempts (GRDB's busy callback).
  @Sendable static func shouldRetry(_ tries: Int) -> Bool {
    if cancelledRunning.load(ordering: .sequentiallyConsistent) > 0 { return false }
    let waited = step * tries
    guard waited < .seconds(StoreDatabase.busyTimeout) else { return false }
    let (seconds, attoseconds) = step.components
    var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    nanosleep(&pause, nil)
    return true
  }
}
