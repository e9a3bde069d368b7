import Catalog
import Foundation
import Gutendex
import Synchronization

/// Draws the progress line of one download on standard error, at most ten times a second,
/// and the final line when done; draws nothing when standard error is not a terminal or
/// `quiet` is set.
final class ProgressMeter: Sendable {
  private struct State {
    var started: ContinuousClock.Instant?
    var startBytes: Int64 = 0
    var lastDraw: ContinuousClock.Instant?
    var latest: DownloadProgress?
  }

  /// The least time between two redraws.
  static let interval: Duration = .milliseconds(100)

  private let output: TerminalOutput
  private let name: String
  private let enabled: Bool
  private let state = Mutex(State())

  init(output: TerminalOutput, name: String, quiet: Bool) {
    self.output = output
    self.name = name
    enabled = !quiet && output.errorIsTerminal
  }

  /// Takes a progress report (from any thread); redraws when the interval has passed.
  func report(_ progress: DownloadProgress) {
    let now = ContinuousClock.now
    let line = state.withLock { state -> ProgressLine? in
      if state.started == nil {
        state.started = now
        state.startBytes = progress.received
      }
      state.latest = progress
      guard enabled else { return nil }
      if let last = state.lastDraw, now - last < Self.interval { return nil }
      state.lastDraw = now
      return Self.line(name, state, progress, now: now, finished: false)
    }
    if let line { output.showProgress(line.text(width: output.width)) }
  }

  /// The final line, or nil when nothing was received by this meter.
  func finish(size: Int64) -> String? {
    let now = ContinuousClock.now
    let line = state.withLock { state -> ProgressLine in
      let progress = DownloadProgress(received: size, total: size)
      if state.started == nil { state.started = now }
      return Self.line(name, state, progress, now: now, finished: true)
    }
    output.clearProgress()
    return enabled ? line.text(width: output.width) : nil
  }

  /// Clears the line (before an error message).
  func clear() {
    output.clearProgress()
  }

  private static func line(
    _ name: String, _ state: State, _ progress: DownloadProgress, now: ContinuousClock.Instant,
    finished: Bool
  ) -> ProgressLine {
    let elapsed = (state.started.map { now - $0 } ?? .zero) / .seconds(1)
    let moved = Double(progress.received - state.startBytes)
    let rate = elapsed > 0 ? moved / elapsed : 0
    return ProgressLine(
      name: name, received: progress.received, total: progress.total, bytesPerSecond: rate,
      elapsed: elapsed, finished: finished)
  }
}
