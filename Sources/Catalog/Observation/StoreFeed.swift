import Synchronization

/// Hands the store's changes to the service's subscribers, one delivery at a time, in order.
///
/// Commits are reported from the writer's queue (``StoreWatch``) and from the poll of other
/// processes' commits; each report bumps a generation and wakes one delivery task, which calls
/// every subscriber with all that changed since its last round and awaits them. A write intent
/// awaits ``settle()`` before it returns, so when `toggleFavorites` returns every view model
/// has already read the change: what is drawn next is the state after the write, never before.
final class StoreFeed: Sendable {
  typealias Subscriber = @Sendable (StoreChange) async -> Void

  private struct State {
    var subscribers: [(id: Int, call: Subscriber)] = []
    var nextID = 0
    var pending = StoreChange()
    /// Reports so far, and reports whose delivery has finished.
    var generation = 0
    var delivered = 0
    var waiters: [(generation: Int, resume: CheckedContinuation<Void, Never>)] = []
    var delivery: Task<Void, Never>?
    var wake: AsyncStream<Void>.Continuation?
  }

  private let state = Mutex(State())
  /// Starts watching when the first subscriber arrives, stops after the last leaves.
  private let startWatching: @Sendable (StoreFeed) -> @Sendable () -> Void
  private let stopWatching = Mutex<(@Sendable () -> Void)?>(nil)

  /// A feed whose watching is started by `startWatching` (which returns how to stop it).
  init(startWatching: @escaping @Sendable (StoreFeed) -> @Sendable () -> Void) {
    self.startWatching = startWatching
  }

  /// Subscribes `subscriber` until the token is cancelled or dropped.
  func subscribe(_ subscriber: @escaping Subscriber) -> ObservationToken {
    let (id, first) = state.withLock { state -> (Int, Bool) in
      state.nextID += 1
      state.subscribers.append((state.nextID, subscriber))
      if state.delivery == nil {
        let (stream, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        state.wake = wake
        state.delivery = Task.detached { [weak self] in
          for await _ in stream {
            guard let self else { return }
            await self.deliver()
          }
        }
      }
      return (state.nextID, state.subscribers.count == 1)
    }
    if first {
      let stop = startWatching(self)
      stopWatching.withLock { $0 = stop }
    }
    return ObservationToken { [weak self] in self?.unsubscribe(id) }
  }

  /// Something changed (any thread; never blocks).
  func report(_ change: StoreChange) {
    guard !change.isEmpty else { return }
    state.withLock { state in
      guard !state.subscribers.isEmpty else { return }
      state.pending.formUnion(change)
      state.generation += 1
      state.wake?.yield()
    }
  }

  /// Returns once every change reported before the call has reached every subscriber.
  func settle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = state.withLock { state -> Bool in
        if state.delivered >= state.generation || state.subscribers.isEmpty { return true }
        state.waiters.append((state.generation, continuation))
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// Drops every subscriber and stops watching (the last one left, or the stores are closing).
  func close() {
    let (waiters, delivery, wake) = state.withLock { state in
      state.subscribers = []
      let waiters = state.waiters.map(\.resume)
      state.waiters = []
      state.delivered = state.generation
      state.pending = []
      defer {
        state.delivery = nil
        state.wake = nil
      }
      return (waiters, state.delivery, state.wake)
    }
    wake?.finish()
    delivery?.cancel()
    for waiter in waiters { waiter.resume() }
    stopWatching.withLock { stop -> (@Sendable () -> Void)? in
      defer { stop = nil }
      return stop
    }?()
  }

  private func deliver() async {
    let (change, generation, subscribers) = state.withLock { state in
      defer { state.pending = [] }
      return (state.pending, state.generation, state.subscribers.map(\.call))
    }
    if !change.isEmpty {
      for subscriber in subscribers { await subscriber(change) }
    }
    let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.delivered = max(state.delivered, generation)
      let ready = state.waiters.filter { $0.generation <= state.delivered }.map(\.resume)
      state.waiters.removeAll { $0.generation <= state.delivered }
      return ready
    }
    for waiter in ready { waiter.resume() }
  }

  private func unsubscribe(_ id: Int) {
    let last = state.withLock { state in
      state.subscribers.removeAll { $0.id == id }
      return state.subscribers.isEmpty
    }
    // Nobody listens: stop watching, and whoever waits for a delivery has nothing to wait for.
    if last { close() }
  }
}
