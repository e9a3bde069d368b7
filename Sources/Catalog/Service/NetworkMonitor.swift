import Foundation
import Synchronization

/// The shared, thread-safe network state that every view model reads.
public final class NetworkMonitor: Sendable {
  private let state: Mutex<NetworkState>

  /// A monitor starting in `initial` (unknown by default).
  public init(_ initial: NetworkState = .unknown) {
    state = Mutex(initial)
  }

  /// The current state.
  public var current: NetworkState { state.withLock { $0 } }

  /// Switches simulated offline on or off (the "simulate offline" switch).
  public func simulateOffline(_ on: Bool) {
    state.withLock { state in
      if on {
        if state != .localOnly { state = .simulatedOffline }
      } else if state == .simulatedOffline {
        state = .unknown
      }
    }
  }

  func markOnline() {
    state.withLock { state in
      if !Self.isPinned(state) { state = .online }
    }
  }

  func markOffline(_ reason: String, at date: Date) {
    state.withLock { state in
      guard !Self.isPinned(state) else { return }
      if case .offline(_, let since) = state {
        state = .offline(reason: reason, since: since)
      } else {
        state = .offline(reason: reason, since: date)
      }
    }
  }

  /// States the user chose, which requests do not override.
  private static func isPinned(_ state: NetworkState) -> Bool {
    state == .simulatedOffline || state == .localOnly
  }
}
