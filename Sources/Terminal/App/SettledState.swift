import Catalog

/// What a one-shot command prints from: the last settled state its view model published while
/// the command's action ran, heard through the same observation the interactive session uses.
@MainActor
final class SettledState<State: Sendable> {
  private(set) var value: State?
  private let isSettled: (State) -> Bool

  private init(isSettled: @escaping (State) -> Bool) {
    self.isSettled = isSettled
  }

  /// Subscribes through `observe`, runs `action`, cancels the subscription, and returns the last
  /// state heard that was settled (loaded or failed, not idle or loading).
  static func after(
    observe: (@escaping @MainActor @Sendable (State) -> Void) -> ObservationToken,
    load: @escaping (State) -> LoadState,
    _ action: () async -> Void
  ) async -> State? {
    let settled = SettledState { state in
      switch load(state) {
      case .idle, .loading: false
      default: true
      }
    }
    let token = observe { [settled] state in settled.hear(state) }
    await action()
    token.cancel()
    return settled.value
  }

  private func hear(_ state: State) {
    if isSettled(state) { value = state }
  }
}
