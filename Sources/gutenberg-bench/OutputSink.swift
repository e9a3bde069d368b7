import Foundation
import Synchronization
import Terminal

/// A terminal-like output that keeps only what the bench checks: bytes and the last screen.
final class OutputSink: Sendable {
  private let written = Mutex<(bytes: Int, last: String)>((0, ""))

  /// A terminal of 100 columns, no colour: the aligned layout a user sees.
  var output: TerminalOutput {
    TerminalOutput(
      isTerminal: true, errorIsTerminal: false, style: .plain, width: 100,
      writeOut: { [self] text in record(text) }, writeErr: { [self] text in record(text) })
  }

  private func record(_ text: String) {
    written.withLock {
      $0.bytes += text.utf8.count
      $0.last = text
    }
  }

  var bytes: Int { written.withLock { $0.bytes } }
  var last: String { written.withLock { $0.last } }
}
