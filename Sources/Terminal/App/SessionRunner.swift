import Foundation

/// Drives an ``InteractiveSession``: prompt, read, run (cancellable with Ctrl-C, with a
/// progress line after 200 ms on a terminal), draw, until `q` or end of input.
@MainActor
package final class SessionRunner {
  let session: InteractiveSession
  let output: TerminalOutput
  let input: any LineSource
  /// How long a command runs before the progress line appears.
  package var progressDelay: Duration = .milliseconds(200)

  /// A runner feeding `input`'s lines to `session`.
  package init(session: InteractiveSession, output: TerminalOutput, input: any LineSource) {
    self.session = session
    self.output = output
    self.input = input
  }

  /// Reads and runs lines until `q` or the end of input; returns the exit status.
  package func run() async -> ExitStatus {
    let output = self.output
    let interactive = input.isInteractive
    // A line editor shows the prompt itself and draws it again after any output.
    let writesPrompt = interactive && !input.editsLines
    let prompt = Self.prompt
    let quit = QuitSignal()
    let input = self.input
    let interrupts = InterruptHandler {
      // Ctrl-C at the prompt, as in a shell: the typed line is dropped and the browser waits
      // for the next one (q or Ctrl-D quit). Lines from a pipe have no one to come back to:
      // the session ends with 130, returning through the main loop so the stores are closed.
      if input.editsLines {
        input.interrupt()
      } else if interactive {
        // The terminal itself dropped the typed line.
        output.print("^C")
        output.write(prompt)
      } else {
        quit.fire()
      }
    }
    let signalSource = interrupts.install()
    defer { interrupts.uninstall(signalSource) }
    // A resize redraws the screen from the state at once, cut to the new window, with no key.
    let session = self.session
    let resizes = SignalWatch([SIGWINCH]) { Task { @MainActor in await session.windowChanged() } }
    defer { resizes.cancel() }
    if writesPrompt {
      session.idleDraw = (before: { output.print("") }, after: { output.write(prompt) })
    }
    defer { session.idleDraw = nil }
    // The editor may be waiting for a key when the session ends (Ctrl-C twice): give the
    // terminal back before the process exits.
    defer { input.stop() }

    await perform(interrupts, label: "loading…") { await $0.start() }
    while true {
      if writesPrompt { output.write(Self.prompt) }
      (input as? EditedInput)?.complete(from: session.completion)
      let next = await quit.race(input, prompt: prompt)
      guard case .line(let line) = next else {
        if next == .quit { return .interrupted }
        // The editor ends the line on Ctrl-D itself.
        if writesPrompt { output.print("") }
        break
      }
      let keepGoing = await perform(interrupts, label: session.progressText(for: line)) {
        await $0.handle(line)
      }
      if !keepGoing { break }
    }
    return .ok
  }

  nonisolated static let prompt = "> "

  @discardableResult
  private func perform<Result: Sendable>(
    _ interrupts: InterruptHandler, label: String,
    _ body: @escaping @MainActor (InteractiveSession) async -> Result
  ) async -> Result {
    let session = self.session
    let output = self.output
    let task = Task { @MainActor in await body(session) }
    interrupts.begin {
      task.cancel()
      output.printError("cancelled")
    }
    let delay = progressDelay
    // On the main actor, as the cancel below is: a sleep that ended while the command was
    // finishing is seen as cancelled here, so a late line never outlives the command (it was
    // drawn after `clearProgress`, and the prompt was written after it: "loading…>").
    let progress = Task { @MainActor in
      try await Task.sleep(for: delay)
      guard !Task.isCancelled else { return }
      output.showProgress(label)
    }
    let result = await task.value
    progress.cancel()
    interrupts.end()
    output.clearProgress()
    return result
  }
}
