import Synchronization

/// The second Ctrl-C at the idle prompt: ends the wait for the next line, so the session's
/// main loop returns (with 130) instead of the process being ended from the signal's queue.
final class QuitSignal: Sendable {
  /// What ended a wait: a line, the end of input, or the quit.
  enum Next: Equatable, Sendable {
    case line(String)
    case endOfInput
    case quit
  }

  private struct State {
    var fired = false
    var waiter: CheckedContinuation<Next, Never>?
  }

  private let state = Mutex(State())

  /// Quits: a wait in progress ends now, and every later wait ends at once.
  func fire() {
    let waiter = state.withLock { state -> CheckedContinuation<Next, Never>? in
      state.fired = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: .quit)
  }

  /// The next line of `input`, or `.quit` if the signal fires first. The read itself cannot be
  /// interrupted (it blocks a thread of its own); after a quit its line is dropped, as the
  /// program is ending.
  func race(_ input: any LineSource, prompt: String = "") async -> Next {
    await withCheckedContinuation { (continuation: CheckedContinuation<Next, Never>) in
      let quitNow = state.withLock { state -> Bool in
        if state.fired { return true }
        state.waiter = continuation
        return false
      }
      if quitNow { return continuation.resume(returning: .quit) }
      Task {
        let line = await input.nextLine(prompt: prompt, remember: true)
        let waiter = self.state.withLock { state -> CheckedContinuation<Next, Never>? in
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume(returning: line.map(Next.line) ?? .endOfInput)
      }
    }
  }
}
