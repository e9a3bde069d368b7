import Foundation

/// Calls a handler on every delivery of any of some signals until ``cancel()``. Dispatch
/// sources, not handlers: a signal's default disposition keeps its effect (none for SIGWINCH;
/// SIGCONT continues the process whatever is watching it).
struct SignalWatch {
  private let sources: [any DispatchSourceSignal]

  /// Watches `signals`, calling `handler` on a global queue for each delivery.
  init(_ signals: [Int32], handler: @escaping @Sendable () -> Void) {
    sources = signals.map { signal in
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
      source.setEventHandler(handler: handler)
      source.resume()
      return source
    }
  }

  /// Stops watching.
  func cancel() {
    for source in sources { source.cancel() }
  }
}
