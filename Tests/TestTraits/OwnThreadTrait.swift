import TestSupport
import Testing

/// Runs each test (each case of a parameterized one) on a thread of its own (``OwnThread``)
/// instead of the cooperative pool.
///
/// `swift test` starts every test at once on a pool of one thread per core; the jobs queue
/// there in order, a minute of them at the start of a run on two cores. A test whose
/// correctness depends on reacting in time (a client's deadline, a lock another thread gives up
/// on after a busy timeout, a child process's stall timeout) then waits behind that queue at
/// every `await`, however little work it has itself. With this trait its continuations run on
/// its own thread, which the system schedules like any other: it reacts within milliseconds.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
  /// Applies to every test of a suite, and of its nested suites.
  public var isRecursive: Bool { true }

  /// Runs `function` (a test case) inside ``OwnThread/run(_:)``.
  public func provideScope(
    for test: Test, testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite's own scope needs no thread; each of its test cases gets one.
    guard testCase != nil else { return try await function() }
    try await OwnThread.run { try await function() }
  }
}

extension Trait where Self == OwnThreadTrait {
  /// Each test on a thread of its own: see ``OwnThreadTrait``.
  public static var ownThread: Self { Self() }
}
