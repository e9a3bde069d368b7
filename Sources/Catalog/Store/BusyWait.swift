import Foundation
import Synchronization

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

    /// An interrupt for one piece of store work, not fired.
    init() {}

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
