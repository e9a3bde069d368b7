import Dispatch
import Foundation
import Synchronization

/// A task executor with a thread of its own: the one a ``LoopbackServer`` serves on, and where
/// the tests run CPU-bound or blocking work.
///
/// Without it the server's tasks (accepting, reading requests, the handler, the socket pool's
/// actor) run on the shared cooperative pool, which has one thread per core. A process that
/// also runs CPU-bound or blocking work on that pool (a test runner running suites in
/// parallel on two cores, say) then starves the server, and clients time out on a server that
/// is merely waiting for a thread. With this executor as the serving task's preference, every
/// job of the server runs here, whatever else the process does.
///
/// The thread starts with the first job and ends after ``idleTimeout`` without one, so a
/// stopped (or idle) server holds no thread; the next job starts a new one. At most one
/// thread runs at a time, so jobs run one after another, in the order they were enqueued.
public final class ThreadExecutor: TaskExecutor {
  /// How long the thread waits for a job before it ends.
  static let idleTimeout = DispatchTimeInterval.seconds(2)

  private struct State {
    var jobs: [UnownedJob] = []
    /// Index of the next job to run (jobs before it have run; trimmed now and then).
    var next = 0
    var threadRunning = false
  }

  private let state = Mutex(State())
  /// Counts enqueued jobs not yet taken: signalled after each append, waited before each take.
  private let available = DispatchSemaphore(value: 0)
  private let name: String

  /// An executor whose thread is called `name` (as `top -H` and a debugger show it).
  public init(name: String) {
    self.name = name
  }

  /// Runs `job` on this executor's thread, after the jobs enqueued before it.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let startThread = state.withLock { state in
      state.jobs.append(job)
      defer { state.threadRunning = true }
      return !state.threadRunning
    }
    available.signal()
    if startThread {
      let thread = Thread { [self] in runJobs() }
      thread.name = name
      thread.start()
    }
  }

  /// Runs jobs until none has come for ``idleTimeout``.
  private func runJobs() {
    while true {
      guard available.wait(timeout: .now() + Self.idleTimeout) == .success else {
        let idle = state.withLock { state in
          // A job appended just now has its signal on the way: wait for it instead of ending.
          if state.next == state.jobs.count { state.threadRunning = false }
          return !state.threadRunning
        }
        if idle { return }
        continue
      }
      let job = state.withLock { state in
        let job = state.jobs[state.next]
        state.next += 1
        if state.next == state.jobs.count {
          state.jobs.removeAll(keepingCapacity: true)
          state.next = 0
        }
        return job
      }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
