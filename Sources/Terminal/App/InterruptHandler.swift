import Dispatch
import Foundation
import Synchronization

/// Ctrl-C for a line-mode program: cancels the request in flight and returns to the prompt;
/// at an idle prompt it asks for a second press within two seconds before quitting.
final class InterruptHandler: Sendable {
  private struct State {
    var inFlight: (@Sendable () -> Void)?
    var lastIdlePress: ContinuousClock.Instant?
  }

  private let state = Mutex(State())
  private let onIdlePress: @Sendable (_ quitting: Bool) -> Void

  /// - Parameter onIdlePress: told about a press at the idle prompt; `quitting` on the second.
  init(onIdlePress: @escaping @Sendable (_ quitting: Bool) -> Void) {
    self.onIdlePress = onIdlePress
  }

  /// Takes over SIGINT from the default handler (which would kill the process at once);
  /// keep the returned source and hand it to ``uninstall(_:)`` when done.
  func install() -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    signalSource.setEventHandler { [weak self] in self?.interrupted() }
    signalSource.resume()
    return signalSource
  }

  func uninstall(_ signalSource: any DispatchSourceSignal) {
    signalSource.cancel()
    signal(SIGINT, SIG_DFL)
  }

  /// Marks work in flight; a Ctrl-C now calls `cancel` instead of counting towards quitting.
  func begin(cancel: @escaping @Sendable () -> Void) {
    state.withLock { $0.inFlight = cancel }
  }

  func end() {
    state.withLock { $0.inFlight = nil }
  }

  func interrupted() {
    let now = ContinuousClock.now
    enum Outcome {
      case cancelled(@Sendable () -> Void)
      case idle(quitting: Bool)
    }
    let outcome = state.withLock { state -> Outcome in
      if let cancel = state.inFlight {
        state.inFlight = nil
        return .cancelled(cancel)
      }
      if let last = state.lastIdlePress, now - last < .seconds(2) {
        return .idle(quitting: true)
      }
      state.lastIdlePress = now
      return .idle(quitting: false)
    }
    switch outcome {
    case .cancelled(let cancel): cancel()
    case .idle(let quitting): onIdlePress(quitting)
    }
  }
}
