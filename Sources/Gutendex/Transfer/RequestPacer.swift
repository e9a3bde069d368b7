import Foundation
import Synchronization

/// Spaces requests out: each one starts at least ``pause`` after the one before it started,
/// however the requests come (one book after another, a redirect's next hop, a retry), so a
/// series of downloads asks a server no more often than its robot rules allow (Project
/// Gutenberg: at most two a second, a pause of 0.5 s).
///
/// The clock and the sleep are injected, so a test can check the pauses without waiting for
/// them; the production pacer uses `ContinuousClock` and `Task.sleep` (cancellation ends a
/// pause, and the request with it).
public final class RequestPacer: Sendable {
  /// The least time between the starts of two requests.
  public let pause: Duration
  private let now: @Sendable () -> ContinuousClock.Instant
  private let sleep: @Sendable (Duration) async throws -> Void
  /// When the last request started, and how many were let through.
  private let state = Mutex<(last: ContinuousClock.Instant?, count: Int)>((nil, 0))

  /// A pacer of `pause` on `now`, waiting with `sleep`.
  public init(
    pause: Duration,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.pause = max(.zero, pause)
    self.now = now
    self.sleep = sleep
  }

  /// How many requests have been let through.
  public var count: Int { state.withLock { $0.count } }

  /// Returns when the next request may start (at once for the first), having claimed that
  /// start, so concurrent callers are spaced out too; throws when the wait is cancelled.
  public func wait() async throws {
    while true {
      let current = now()
      let wait = state.withLock { state -> Duration in
        guard let last = state.last else {
          state.last = current
          state.count += 1
          return .zero
        }
        let due = last + pause
        guard due > current else {
          state.last = current
          state.count += 1
          return .zero
        }
        return due - current
      }
      if wait == .zero { return }
      try await sleep(wait)
    }
  }
}

/// A transport that lets each request through its ``RequestPacer`` first: what `library
/// update` sends its mirror requests through.
public struct PacedTransport: Requestable {
  /// The transport that sends.
  public let base: any Requestable
  /// The pacer every request waits on.
  public let pacer: RequestPacer

  /// `base`, paced by `pacer`.
  public init(base: any Requestable, pacer: RequestPacer) {
    self.base = base
    self.pacer = pacer
  }

  /// Waits for the pacer (a cancelled wait throws `CancellationError`), then sends.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await pacer.wait()
    return try await base.send(request)
  }

  /// Waits for the pacer, then opens.
  public func open(_ request: HTTPRequest) async throws -> StreamedResponse {
    try await pacer.wait()
    return try await base.open(request)
  }
}
