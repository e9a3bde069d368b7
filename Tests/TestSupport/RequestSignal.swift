import Foundation
import Gutendex
import Synchronization

/// A handler in front of another that counts requests and wakes whoever waits for the Nth, so a
/// test can act at an exact point of a client's conversation (kill it after its 7th request).
public final class RequestSignal: Requestable {
  private let inner: any Requestable
  private let state = Mutex<(count: Int, waiters: [(Int, @Sendable (Bool) -> Void)])>(
    (0, []))
  private let held = Mutex<(released: Bool, parked: [CheckedContinuation<Void, Never>])>(
    (false, []))
  /// Requests from this number on wait for ``releaseHeld()`` before being answered.
  private let holdFrom: Int?

  /// Counts the requests `inner` answers; with `holdFrom`, the requests from that number on
  /// wait (a page on its way for as long as a test needs) until ``releaseHeld()``.
  public init(_ inner: any Requestable, holdFrom: Int? = nil) {
    self.inner = inner
    self.holdFrom = holdFrom
  }

  /// Lets every held request (and any later one) be answered.
  public func releaseHeld() {
    let parked = held.withLock { state in
      state.released = true
      defer { state.parked = [] }
      return state.parked
    }
    for continuation in parked { continuation.resume() }
  }

  /// Requests received so far.
  public var count: Int { state.withLock { $0.count } }

  /// Returns once `number` requests have arrived (at once when they already have), or
  /// throws an ``AwaitTimeout`` if they have not by ``Awaiting/standard``.
  public func waitFor(_ number: Int, file: String = #fileID, line: Int = #line) async throws {
    _ = try await Awaiting.event(
      "request number \(number) to reach the server", file: file, line: line
    ) { resume in
      let ready = state.withLock { state -> Bool in
        if state.count >= number { return true }
        state.waiters.append((number, resume))
        return false
      }
      if ready { resume(true) }
    }
  }

  /// Wakes every waiter now, whatever the count (the client ended before reaching it).
  public func wakeAll() {
    let woken = state.withLock { state -> [@Sendable (Bool) -> Void] in
      defer { state.waiters = [] }
      return state.waiters.map(\.1)
    }
    for resume in woken { resume(false) }
  }

  /// Counts the request, wakes the waiters it satisfies, then answers it from the handler.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let (woken, count) = state.withLock { state -> ([@Sendable (Bool) -> Void], Int) in
      state.count += 1
      let count = state.count
      let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
      state.waiters.removeAll { $0.0 <= count }
      return (ready, count)
    }
    for resume in woken { resume(true) }
    if let holdFrom, count >= holdFrom {
      await withCheckedContinuation { continuation in
        let go = held.withLock { state -> Bool in
          if state.released { return true }
          state.parked.append(continuation)
          return false
        }
        if go { continuation.resume() }
      }
    }
    return try await inner.send(request)
  }
}
