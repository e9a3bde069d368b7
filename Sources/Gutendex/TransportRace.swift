import Foundation
import Synchronization

/// Races one transport call against a timeout and the caller's cancellation, without ever
/// waiting for a transport that ignores cancellation.
///
/// A task group would await its children on exit, so a transport that never returns and never
/// checks for cancellation would hang the caller past its timeout. Here the transport runs in
/// an unstructured task that is cancelled and abandoned once any of the three outcomes arrives.
final class TransportRace: Sendable {
  /// How the race ended.
  enum Outcome: Sendable {
    case response(HTTPResponse)
    case failed(any Error)
    case timedOut
    case cancelled
  }

  private struct State {
    var continuation: CheckedContinuation<Outcome, Never>?
    var outcome: Outcome?
    var tasks: [Task<Void, Never>] = []
  }

  private let state = Mutex(State())

  private init() {}

  /// Sends `request` through `transport`, giving up after `timeout` or when the caller is
  /// cancelled, whichever comes first.
  static func run(
    _ request: HTTPRequest, through transport: any Requestable, timeout: Duration, limit: Int
  ) async -> Outcome {
    let race = TransportRace()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        race.install(continuation)
        let work = Task {
          do {
            let response = try await transport.open(request)
            race.finish(.response(try await response.collected(limit: limit)))
          } catch {
            race.finish(.failed(error))
          }
        }
        let timer = Task {
          // A cancelled sleep means the race is already over: nothing to report.
          guard (try? await Task.sleep(for: timeout)) != nil else { return }
          race.finish(.timedOut)
        }
        race.track([work, timer])
      }
    } onCancel: {
      race.finish(.cancelled)
    }
  }

  private func install(_ continuation: CheckedContinuation<Outcome, Never>) {
    let early: Outcome? = state.withLock { state in
      if let outcome = state.outcome { return outcome }
      state.continuation = continuation
      return nil
    }
    // Cancelled before the continuation existed: answer straight away.
    if let early { continuation.resume(returning: early) }
  }

  private func track(_ tasks: [Task<Void, Never>]) {
    let finished = state.withLock { state in
      state.tasks = tasks
      return state.outcome != nil
    }
    if finished {
      for task in tasks { task.cancel() }
    }
  }

  /// Records the first outcome, resumes the caller once, and cancels whatever still runs.
  private func finish(_ outcome: Outcome) {
    let (continuation, tasks) = state.withLock { state in
      guard state.outcome == nil else {
        return (CheckedContinuation<Outcome, Never>?.none, [Task<Void, Never>]())
      }
      state.outcome = outcome
      defer { state.continuation = nil }
      return (state.continuation, state.tasks)
    }
    for task in tasks { task.cancel() }
    continuation?.resume(returning: outcome)
  }
}
