import Foundation
import Synchronization
import Testing

@testable import Gutendex

/// The pacer of `library update`: each request starts at least its pause after the one before,
/// on an injected clock, so the pauses are checked without being waited for.
@Suite struct RequestPacerTests {
  /// A clock that moves only when slept on: each sleep advances it by what was asked.
  final class FakeClock: Sendable {
    let origin = ContinuousClock.now
    private let state = Mutex<(elapsed: Duration, sleeps: [Duration])>((.zero, []))

    var now: ContinuousClock.Instant { origin + state.withLock { $0.elapsed } }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }
    func advance(_ duration: Duration) { state.withLock { $0.elapsed += duration } }
    func sleep(_ duration: Duration) {
      state.withLock {
        $0.sleeps.append(duration)
        $0.elapsed += duration
      }
    }
  }

  @Test func requestsStartHalfASecondApartAtTheLeast() async throws {
    let clock = FakeClock()
    let pacer = RequestPacer(
      pause: .milliseconds(500), now: { clock.now }, sleep: { clock.sleep($0) })
    var starts: [Duration] = []
    for _ in 0..<4 {
      try await pacer.wait()
      starts.append(clock.now - clock.origin)
    }
    #expect(starts == [.zero, .milliseconds(500), .seconds(1), .milliseconds(1500)])
    #expect(clock.sleeps == Array(repeating: .milliseconds(500), count: 3))
    #expect(pacer.count == 4)
  }

  @Test func timeSpentElsewhereCountsTowardsThePause() async throws {
    let clock = FakeClock()
    let pacer = RequestPacer(
      pause: .milliseconds(500), now: { clock.now }, sleep: { clock.sleep($0) })
    try await pacer.wait()
    // A slow download took 300 ms: only the rest of the pause is waited.
    clock.advance(.milliseconds(300))
    try await pacer.wait()
    #expect(clock.sleeps == [.milliseconds(200)])
    // A download longer than the pause: the next request goes at once.
    clock.advance(.seconds(2))
    try await pacer.wait()
    #expect(clock.sleeps == [.milliseconds(200)])
  }

  @Test func aPauseOfZeroNeverWaits() async throws {
    let clock = FakeClock()
    let pacer = RequestPacer(pause: .zero, now: { clock.now }, sleep: { clock.sleep($0) })
    for _ in 0..<5 { try await pacer.wait() }
    #expect(clock.sleeps.isEmpty)
    #expect(pacer.count == 5)
  }

  @Test func aCancelledPauseThrowsAndLetsNothingThrough() async throws {
    let clock = FakeClock()
    let pacer = RequestPacer(
      pause: .seconds(1), now: { clock.now }, sleep: { _ in throw CancellationError() })
    try await pacer.wait()
    await #expect(throws: CancellationError.self) { try await pacer.wait() }
    #expect(pacer.count == 1)
  }

  @Test func theConditionSendsTheETagElseTheDateAndNoLineBreaks() {
    #expect(
      ConditionalRequest(etag: "\"v1\"", modifiedSince: "x").headers == ["If-None-Match": "\"v1\""])
    #expect(
      ConditionalRequest(modifiedSince: "Sat, 01 Mar 2025 12:00:00 GMT").headers
        == ["If-Modified-Since": "Sat, 01 Mar 2025 12:00:00 GMT"])
    #expect(ConditionalRequest(etag: "\"v1\"\r\nX-Evil: 1").headers.isEmpty)
    #expect(ConditionalRequest().headers.isEmpty)
  }
}
