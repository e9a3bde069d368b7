import Foundation
import Synchronization

/// How a store's connections wait for another's write lock: in short sleeps, up to the busy
/// timeout, giving up at once while some cancelled work on that store is still running.
///
/// SQLite's busy handler is not stopped by `sqlite3_interrupt` (GRDB's cancellation of an async
/// access), and its callback cannot tell which work it serves (GRDB may run it on another
/// thread), so the stop is per store: while a cancelled piece of work on the store is
/// unfinished, every lock wait of that store gives up. In the binary only Ctrl-C cancels store
/// work, and it means "stop waiting" for all of it; other stores (another service in the same
/// process, as in the tests) are not touched.
final class BusyWait: Sendable {
  /// The cancelled store work that has not finished yet.
  private let cancelledRunning = Atomic(0)
  /// Lock waits begun on this store, and who is told of the next (a test hook: see
  /// ``onWaitBegun(_:)``).
  private let begun = Mutex<(count: Int, observers: [@Sendable () -> Void])>((0, []))

  /// A lock wait of its own, for one store (or the stores of one service).
  init() {}

  /// A new interrupt for one piece of work on this store.
  func interrupt() -> Interrupt {
    Interrupt(owner: self)
  }

  /// One piece of store work's cancellation: fired at most once, finished exactly once.
  final class Interrupt: Sendable {
    private struct State {
      var fired = false
      var finished = false
    }
    private let state = Mutex(State())
    private let owner: BusyWait

    /// An interrupt for one piece of work on `owner`'s store, not fired.
    init(owner: BusyWait) {
      self.owner = owner
    }

    /// The awaiting task was cancelled: lock waits give up until this work finishes.
    func fire() {
      let counts = state.withLock { state -> Bool in
        guard !state.fired, !state.finished else { return false }
        state.fired = true
        return true
      }
      if counts { owner.cancelledRunning.add(1, ordering: .sequentiallyConsistent) }
    }

    /// The work returned; a fired interrupt stops counting.
    func finish() {
      let counted = state.withLock { state -> Bool in
        state.finished = true
        return state.fired
      }
      if counted { owner.cancelledRunning.subtract(1, ordering: .sequentiallyConsistent) }
    }

    /// Whether the awaiting task was cancelled while the work ran.
    var fired: Bool { state.withLock { $0.fired } }
  }

  /// One sleep between attempts at the lock.
  static let step: Duration = .milliseconds(10)

  /// Calls `observer` once a lock wait has begun on this store (at once if one already has).
  ///
  /// A test hook: proof that work is waiting for another's lock, where a sleep would only
  /// assume it (on a busy machine the work may not even have started after the sleep).
  func onWaitBegun(_ observer: @escaping @Sendable () -> Void) {
    let already = begun.withLock { begun -> Bool in
      if begun.count > 0 { return true }
      begun.observers.append(observer)
      return false
    }
    if already { observer() }
  }

  /// With `GUTENBERG_TEST_LOCK_WAIT_LOG` set (by the tests that run the binary), each lock
  /// wait that begins appends a line to that file: the same proof as ``onWaitBegun(_:)`` for
  /// another process.
  private static let waitLog = ProcessInfo.processInfo.environment[
    "GUTENBERG_TEST_LOCK_WAIT_LOG"]

  private func waitBegins() {
    let observers = begun.withLock { begun in
      begun.count += 1
      defer { begun.observers = [] }
      return begun.observers
    }
    for observer in observers { observer() }
    Self.logWait()
  }

  /// Appends a line to `GUTENBERG_TEST_LOCK_WAIT_LOG` when it is set: a wait for a lock began
  /// in this process (SQLite's, or the `flock` of `doctor --repair`).
  static func logWait() {
    if let path = waitLog, let log = FileHandle(forWritingAtPath: path) {
      log.seekToEndOfFile()
      log.write(Data("lock wait \(getpid())\n".utf8))
      try? log.close()
    }
  }

  /// Whether to try the lock again after `tries` failed attempts (GRDB's busy callback).
  @Sendable func shouldRetry(_ tries: Int) -> Bool {
    if cancelledRunning.load(ordering: .sequentiallyConsistent) > 0 { return false }
    if tries == 0 { waitBegins() }
    let waited = Self.step * tries
    guard waited < .seconds(StoreDatabase.busyTimeout) else { return false }
    let (seconds, attoseconds) = Self.step.components
    var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    nanosleep(&pause, nil)
    return true
  }
}
