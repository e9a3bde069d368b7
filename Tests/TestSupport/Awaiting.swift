import Dispatch
import Foundation
import Synchronization

/// What an awaited event did not do in time: says what was awaited and for how long.
public struct AwaitTimeout: Error, CustomStringConvertible {
  /// "waited 120 s for …", with the place that waited.
  public var description: String

  /// A timeout described by `description`.
  public init(description: String) {
    self.description = description
  }

  /// The timeout of a wait for `what` at `file`:`line` that lasted `limit`.
  init(_ what: String, after limit: Duration, file: String, line: Int) {
    description = "waited \(limit.components.seconds) s for \(what) (\(file):\(line))"
  }
}

/// Deadlines on the events a test awaits, instead of a time limit on the whole test.
///
/// Swift Testing's `.timeLimit` starts counting before the test gets a thread: on two busy
/// cores with every suite started at once, tests spent their whole minute queued and failed
/// without having run. A deadline here starts when the test begins to wait for one thing (a
/// request reaching the fake server, a state being observed, a task ending), and its failure
/// names that thing. A test that would hang forever still ends: with an ``AwaitTimeout`` thrown
/// at the wait.
///
/// The awaited side often needs the cooperative pool or the main actor, and on a loaded
/// machine those can be queued up for minutes (two pool threads, every suite started at once,
/// six other processes on the cores): 120 s of wall time then says nothing about the awaited
/// thing. So once the time is up, the wait ends only after the cooperative pool has answered
/// promptly for a few seconds in a row (``untilExecutorsAreFree()``): a hang is a wait that goes
/// on while the pool is free.
public enum Awaiting {
  /// The deadline of an awaited event unless a test says otherwise: generous, because on a
  /// loaded machine the awaited side may itself wait a long time for a thread.
  public static let standard: Duration = .seconds(120)

  /// Waits until `register`'s `resume` is called (the first call wins), or throws an
  /// ``AwaitTimeout`` naming `what` once `limit` has passed. `register` runs once, at once; a
  /// `resume` called after the deadline does nothing.
  public static func event<T: Sendable>(
    _ what: String, within limit: Duration = standard,
    file: String = #fileID, line: Int = #line,
    isolation: isolated (any Actor)? = #isolation,
    _ register: (_ resume: @escaping @Sendable (T) -> Void) -> Void
  ) async throws -> T {
    let shot = OneShot<T>()
    let priority = Task.currentPriority
    return try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
      shot.arm(continuation)
      whenPassed(StarvedDeadline(limit), after: Double(limit.components.seconds)) {
        whenExecutorsAreFree(at: priority) {
          shot.finish(.failure(AwaitTimeout(what, after: limit, file: file, line: line)))
        }
      }
      register { value in shot.finish(.success(value)) }
    }
  }

  /// Calls `then` once `deadline` has passed, looking first after `seconds`, then every second:
  /// the awaited side is often a child process or a server thread, which a machine starved of
  /// CPU runs late, so that time is not counted (``StarvedDeadline``).
  private static func whenPassed(
    _ deadline: StarvedDeadline, after seconds: Double, _ then: @escaping @Sendable () -> Void
  ) {
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      guard deadline.hasPassed else { return whenPassed(deadline, after: 1, then) }
      then()
    }
  }

  /// Returns once `holds` is true (polled every 10 ms, for state that tells no one when it
  /// changes: a file's size, another process's output), or throws an ``AwaitTimeout`` naming
  /// `what` once `limit` has passed, time the machine was starved of CPU not counted
  /// (``StarvedDeadline``): the state is often changed by a child process or a server thread,
  /// which a starved machine runs late.
  public static func condition(
    _ what: String, within limit: Duration = standard,
    file: String = #fileID, line: Int = #line,
    _ holds: () -> Bool
  ) async throws {
    let deadline = StarvedDeadline(limit)
    while !holds() {
      if deadline.hasPassed {
        await untilExecutorsAreFree()
        if holds() { return }
        throw AwaitTimeout(what, after: limit, file: file, line: line)
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Returns once the cooperative pool has run a probe job within ``promptly``,
  /// ``promptRounds`` times in a row (half a second apart), or after ten minutes at most: the
  /// time a test's awaited work could have run, but did not.
  public static func untilExecutorsAreFree() async {
    let priority = Task.currentPriority
    await withCheckedContinuation { continuation in
      whenExecutorsAreFree(at: priority) { continuation.resume() }
    }
  }

  /// How fast a probe job must run for the executors to count as free.
  static let promptly = 0.5
  /// How many prompt probes in a row make the executors free.
  static let promptRounds = 10

  /// Calls `then` (on a thread of its own, which blocks while it probes) once the executors
  /// that run work of `priority` are free: see ``untilExecutorsAreFree()``.
  ///
  /// The probe runs at the waiting test's own priority: on Linux each priority has a thread
  /// pool of its own (libdispatch's root queues), so a probe at another priority answers
  /// promptly from an idle pool while the test's pool is still queued up (loaded runs failed
  /// mock-client tests that way, their 50 ms timers not yet run after minutes).
  static func whenExecutorsAreFree(
    at priority: TaskPriority, _ then: @escaping @Sendable () -> Void
  ) {
    Thread.detachNewThread {
      // A pool that never answers (every thread blocked) must not hold the failure back for
      // ever: ten minutes is beyond any busy machine.
      let giveUp = DispatchTime.now() + 600
      var prompt = 0
      while prompt < promptRounds, DispatchTime.now() < giveUp {
        let pool = DispatchSemaphore(value: 0)
        Task.detached(priority: priority) { pool.signal() }
        let free = pool.wait(timeout: .now() + promptly) == .success
        prompt = free ? prompt + 1 : 0
        if !free {
          // Let the late probe run (the pool is busy: this is the time not counted).
          _ = pool.wait(timeout: giveUp)
        }
        Thread.sleep(forTimeInterval: 0.5)
      }
      then()
    }
  }

  /// Runs `operation` in a task of its own and returns its result, or cancels it and throws
  /// an ``AwaitTimeout`` naming `what` once `limit` has passed.
  public static func value<T: Sendable>(
    _ what: String, within limit: Duration = standard,
    file: String = #fileID, line: Int = #line,
    of operation: sending @escaping @isolated(any) () async throws -> T
  ) async throws -> T {
    let task = Task(operation: operation)
    do {
      let result = try await event(what, within: limit, file: file, line: line) { resume in
        Task { resume(await task.result) }
      }
      return try result.get()
    } catch let timeout as AwaitTimeout {
      task.cancel()
      throw timeout
    }
  }
}

/// A continuation resumed once, by whichever comes first: the event or its deadline.
private final class OneShot<T: Sendable>: Sendable {
  private let slot = Mutex<(CheckedContinuation<T, any Error>?, Result<T, any Error>?)>(
    (nil, nil))

  func arm(_ continuation: CheckedContinuation<T, any Error>) {
    // `finish` cannot have run yet (the timer and `register` start after this), but keep the
    // order honest anyway: an early result is delivered at once.
    let early = slot.withLock { slot -> Result<T, any Error>? in
      if let result = slot.1 { return result }
      slot.0 = continuation
      return nil
    }
    if let early { continuation.resume(with: early) }
  }

  func finish(_ result: Result<T, any Error>) {
    let continuation = slot.withLock { slot -> CheckedContinuation<T, any Error>? in
      guard slot.1 == nil else { return nil }
      slot.1 = result
      defer { slot.0 = nil }
      return slot.0
    }
    continuation?.resume(with: result)
  }
}
