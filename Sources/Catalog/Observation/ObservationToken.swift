import Synchronization

/// Keeps one observation alive; `cancel()` or dropping the token ends it.
public final class ObservationToken: Sendable, Hashable {
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Mutex(onCancel)
  }

  /// Stops delivery; calling it again does nothing.
  public func cancel() {
    let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
      defer { action = nil }
      return action
    }
    action?()
  }

  /// True once the observation has been cancelled.
  public var isCancelled: Bool { onCancel.withLock { $0 == nil } }

  deinit {
    cancel()
  }

  /// Tokens are equal only when they are the same subscription.
  public static func == (lhs: ObservationToken, rhs: ObservationToken) -> Bool { lhs === rhs }

  /// Hashes the subscription's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
