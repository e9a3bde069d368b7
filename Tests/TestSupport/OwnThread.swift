import GutendexServer

/// Runs work that would hold a thread of the cooperative pool for long (CPU-bound loops over
/// the whole catalogue, blocking waits) on a thread of its own.
///
/// The pool has one thread per core (two on the CI machine) and `swift test` runs the suites in
/// parallel on it. A test computing for 20 s there leaves every other test's tasks waiting that
/// long: their deadlines pass while nothing of theirs runs, and the main actor's hops wait too.
/// On a thread of its own the work is preempted like any thread, and the cores are shared.
public enum OwnThread {
  /// A new executor with a thread of its own, for `addTask(executorPreference:)`.
  public static func executor() -> some TaskExecutor {
    ThreadExecutor(name: "test work")
  }

  /// Runs `body` in the current task (so `#expect`, task-locals and cancellation work as
  /// usual) but on a new ``ThreadExecutor``. A body isolated to an actor (a `@MainActor` test's
  /// closure) stays on that actor: this only moves nonisolated work.
  public static func run<T>(_ body: () async throws -> T) async throws -> T {
    try await withTaskExecutorPreference(executor(), operation: body)
  }
}
