import Catalog
import Foundation
import Gutendex
import Synchronization
import Testing

@testable import Terminal

/// The download progress line: drawn only on a terminal, at most ten times a second, and
/// never with `--quiet`.
@Suite struct ProgressMeterTests {
  final class Captured: Sendable {
    let writes = Mutex<[String]>([])
    func append(_ text: String) { writes.withLock { $0.append(text) } }
    var draws: [String] { writes.withLock { $0 }.filter { $0.count > 4 } }
  }

  static func output(errorIsTerminal: Bool, _ captured: Captured) -> TerminalOutput {
    TerminalOutput(
      isTerminal: false, errorIsTerminal: errorIsTerminal, style: .plain, width: 100,
      writeOut: { _ in }, writeErr: { captured.append($0) })
  }

  @Test func redrawsAtMostTenTimesASecond() {
    let captured = Captured()
    let meter = ProgressMeter(
      output: Self.output(errorIsTerminal: true, captured), name: "84.epub", quiet: false)
    let start = ContinuousClock.now
    for step in 1...20_000 {
      meter.report(DownloadProgress(received: Int64(step) * 100, total: 2_000_000))
    }
    let elapsed = (ContinuousClock.now - start) / .milliseconds(100)
    let draws = captured.draws
    #expect(!draws.isEmpty)
    // Whatever the machine's speed: one draw, then at most one per 100 ms that passed.
    #expect(draws.count <= Int(elapsed) + 1, "\(draws.count) draws in \(elapsed) × 100 ms")
    #expect(draws.allSatisfy { $0.hasPrefix("\r\u{1B}[K84.epub  ") })
    let final = meter.finish(size: 2_000_000)
    #expect(final?.hasPrefix("84.epub  1.9 MiB in 0:") == true, "\(final ?? "nil")")
  }

  @Test func silentOnAPipeAndWhenQuiet() {
    for (terminal, quiet) in [(false, false), (true, true)] {
      let captured = Captured()
      let meter = ProgressMeter(
        output: Self.output(errorIsTerminal: terminal, captured), name: "84.epub", quiet: quiet)
      meter.report(DownloadProgress(received: 10, total: 100))
      #expect(captured.draws.isEmpty)
      #expect(meter.finish(size: 100) == nil)
    }
  }

  @Test func aHeldProgressLineIsNotDrawnOverThePagersPrompt() {
    let captured = Captured()
    let output = Self.output(errorIsTerminal: true, captured)
    output.showProgress("working…")
    #expect(captured.draws == ["\r\u{1B}[Kworking…"])
    // The reader takes over: the line shown is erased, and a late one is not drawn.
    output.holdProgress(true)
    #expect(captured.writes.withLock { $0 }.last == "\r\u{1B}[K")
    output.showProgress("working…")
    #expect(captured.draws.count == 1)
    output.holdProgress(false)
    output.showProgress("loading…")
    #expect(captured.draws.last == "\r\u{1B}[Kloading…")
  }
}
