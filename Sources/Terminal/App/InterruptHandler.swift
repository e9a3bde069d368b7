import Dispatch
import Foundation
import Synchronization

/// Ctrl-C for a line-mode program: cancels the request in flight and returns to the prompt;
/// at an idle prompt it tells its owner, which drops the typed line as a shell does.
final class InterruptHandler: Sendable {
  private struct State {
    var inFlight: (@Sendable () -> Void)?
    /// A press came while nothing was in flight (a one-shot command then stops at its next
    /// step, and work begun after it is cancelled at once).
    var pressedWhileIdle = false
  }

  private let state = Mutex(State())
  private let onIdlePress: @Sendable () -> Void
  /// For a one-shot command: a press between pieces of work stops the command (it checks
  /// ``pressedWhileIdle`` and returns 130 through the main loop) instead of asking twice.
  let stopsWhenIdle: Bool

  /// - Parameter onIdlePress: told about each press while nothing is in flight.
  init(onIdlePress: @escaping @Sendable () -> Void) {
    self.onIdlePress = onIdlePress
    stopsWhenIdle = false
  }

  /// A handler for a one-shot command: see ``stopsWhenIdle``.
  static func stoppingWhenIdle() -> InterruptHandler {
    InterruptHandler(stopsWhenIdle: true)
  }

  private init(stopsWhenIdle: Bool) {
    onIdlePress = {}
    self.stopsWhenIdle = stopsWhenIdle
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
  /// With ``stopsWhenIdle``, work begun after a press is cancelled at once.
  func begin(cancel: @escaping @Sendable () -> Void) {
    let cancelNow = state.withLock { state -> Bool in
      if stopsWhenIdle, state.pressedWhileIdle { return true }
      state.inFlight = cancel
      return false
    }
    if cancelNow { cancel() }
  }

  /// Whether Ctrl-C was pressed while nothing was in flight (see ``stopsWhenIdle``).
  var pressedWhileIdle: Bool { state.withLock { $0.pressedWhileIdle } }

  func end() {
    state.withLock { $0.inFlight = nil }
  }

  func interrupted() {
    let cancel = state.withLock { state -> (@Sendable () -> Void)? in
      if let cancel = state.inFlight {
        state.inFlight = nil
        return cancel
      }
      state.pressedWhileIdle = true
      return nil
    }
    if let cancel {
      cancel()
    } else {
      onIdlePress()
    }
  }
}
