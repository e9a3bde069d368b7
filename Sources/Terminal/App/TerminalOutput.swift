import Foundation
import Synchronization

/// Where the front writes: standard output for screens and results, standard error for
/// diagnostics and the progress line. Writes go straight to the file descriptors (unbuffered),
/// so a pipe sees each screen as soon as it is drawn.
package final class TerminalOutput: Sendable {
  /// True when standard output is a terminal (aligned, maybe coloured) rather than a pipe.
  package let isTerminal: Bool
  /// True when standard error is a terminal (the progress line is shown only there).
  package let errorIsTerminal: Bool
  /// Colour codes, when colour is on.
  package let style: Style
  /// The width to fit lines to, in terminal cells: measured again at every use on a terminal,
  /// so each page follows the window.
  package var width: Int { windowSize?().width ?? fixedWidth }
  /// The window's height in rows, on a terminal (nil for a pipe or a test's output, which have
  /// no height: their pages are never cut to one).
  package var height: Int? { windowSize?().height }
  private let fixedWidth: Int
  private let windowSize: (@Sendable () -> (width: Int, height: Int))?
  private let writeOut: @Sendable (String) -> Void
  private let writeErr: @Sendable (String) -> Void
  private let progressShown = Mutex(false)
  private let progressHeld = Mutex(false)

  /// An output over these streams and terminal facts (injectable for tests).
  package init(
    isTerminal: Bool, errorIsTerminal: Bool, style: Style, width: Int,
    writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void
  ) {
    self.isTerminal = isTerminal
    self.errorIsTerminal = errorIsTerminal
    self.style = style
    self.fixedWidth = width
    self.windowSize = nil
    self.writeOut = writeOut
    self.writeErr = writeErr
  }

  /// An output whose width and height are the window's, read at each use.
  package init(
    isTerminal: Bool, errorIsTerminal: Bool, style: Style,
    windowSize: @escaping @Sendable () -> (width: Int, height: Int),
    writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void
  ) {
    self.isTerminal = isTerminal
    self.errorIsTerminal = errorIsTerminal
    self.style = style
    self.fixedWidth = windowSize().width
    self.windowSize = windowSize
    self.writeOut = writeOut
    self.writeErr = writeErr
  }

  /// The process's own standard output and error.
  package static func standard(color: ColorPolicy.Mode) -> TerminalOutput {
    let policy = ColorPolicy.current(mode: color)
    guard LineEditor.isAvailable else {
      return TerminalOutput(
        isTerminal: isatty(STDOUT_FILENO) == 1, errorIsTerminal: isatty(STDERR_FILENO) == 1,
        style: policy.style, width: TerminalWidth.current(),
        writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeErr: { FileHandle.standardError.write(Data($0.utf8)) })
    }
    // On a terminal, through the line editor: output that arrives while a line is half typed
    // is written above the prompt, and the prompt and the typed text are drawn again.
    let editor = LineEditor.shared
    return TerminalOutput(
      isTerminal: true, errorIsTerminal: isatty(STDERR_FILENO) == 1, style: policy.style,
      windowSize: { (TerminalWidth.current(), TerminalHeight.current()) },
      writeOut: { editor.write($0, to: STDOUT_FILENO) },
      writeErr: { editor.write($0, to: STDERR_FILENO) })
  }

  /// Writes lines to standard output.
  package func print(_ lines: [String]) {
    clearProgress()
    guard !lines.isEmpty else { return }
    writeOut(lines.joined(separator: "\n") + "\n")
  }

  /// Writes one line to standard output.
  package func print(_ line: String) {
    print([line])
  }

  /// Writes text to standard output without a newline (the prompt).
  package func write(_ text: String) {
    writeOut(text)
  }

  /// Writes one line to standard error.
  package func printError(_ line: String) {
    clearProgress()
    writeErr(line + "\n")
  }

  /// Shows a transient progress line on standard error (only when it is a terminal).
  package func showProgress(_ text: String) {
    guard errorIsTerminal, !progressHeld.withLock({ $0 }) else { return }
    progressShown.withLock { $0 = true }
    writeErr("\r\u{1B}[K" + style.dim(text))
  }

  /// While `held`, no progress line is shown: a command that waits at its own prompt (the
  /// reader) is not busy, and a late "working…" would cover that prompt.
  package func holdProgress(_ held: Bool) {
    progressHeld.withLock { $0 = held }
    if held { clearProgress() }
  }

  /// Erases the progress line, if one is shown.
  package func clearProgress() {
    let shown = progressShown.withLock { shown -> Bool in
      defer { shown = false }
      return shown
    }
    if shown { writeErr("\r\u{1B}[K") }
  }
}
