import Synchronization

/// A value that tells its observers about every change: our own small observation mechanism.
///
/// `observe` calls the observer at once with the current value and again after every change,
/// observers in the order they subscribed. It returns a token; cancelling or dropping the token
/// stops delivery and releases the observer (and whatever it captured). Changes and delivery
/// happen on the main actor, so observers never race the state they read.
@MainActor
public final class ObservableState<Value: Sendable> {
  /// The current value.
  public private(set) var value: Value
  private let registry = ObserverRegistry<Value>()
  /// Values set during a delivery, waiting for it to finish.
  private var pending: [Value] = []
  private var isDelivering = false

  /// A state holding `value`, with no observers yet.
  public init(_ value: Value) {
    self.value = value
  }

  /// Subscribes `observer`; it is called now with the current value and after each change.
  public func observe(_ observer: @escaping @MainActor @Sendable (Value) -> Void)
    -> ObservationToken
  {
    let id = registry.add(observer)
    observer(value)
    return ObservationToken { [weak registry] in registry?.remove(id) }
  }

  /// The number of live subscriptions (for tests and diagnostics).
  public var observerCount: Int { registry.count }

  /// Changes the value and notifies every observer once.
  ///
  /// A change made by an observer during delivery is queued and delivered after the current
  /// value has reached every observer, so each observer sees the values in the order they
  /// were set and ends on the current one (a nested delivery would let later observers see
  /// the newer value first and then the stale one).
  func update(_ change: (inout Value) -> Void) {
    change(&value)
    pending.append(value)
    guard !isDelivering else { return }
    isDelivering = true
    defer { isDelivering = false }
    while !pending.isEmpty {
      let snapshot = pending.removeFirst()
      for (id, observer) in registry.entries() where registry.contains(id) {
        observer(snapshot)
      }
    }
  }

  /// Replaces the value and notifies every observer once.
  func set(_ newValue: Value) {
    update { $0 = newValue }
  }
}

/// The observers of one ``ObservableState``, guarded by a lock so tokens can cancel from any
/// thread (a token may be dropped anywhere, and its `deinit` is not on the main actor).
final class ObserverRegistry<Value: Sendable>: Sendable {
  typealias Observer = @MainActor @Sendable (Value) -> Void

  private struct Entries {
    var nextID = 0
    var list: [(id: Int, observer: Observer)] = []
  }

  private let storage = Mutex(Entries())

  func add(_ observer: @escaping Observer) -> Int {
    storage.withLock { entries in
      entries.nextID += 1
      entries.list.append((entries.nextID, observer))
      return entries.nextID
    }
  }

  func remove(_ id: Int) {
    // Take the observer out under the lock but release it outside, so whatever it captured
    // is never deinitialised while the lock is held.
    let removed = storage.withLock { entries -> [(id: Int, observer: Observer)] in
      let gone = entries.list.filter { $0.id == id }
      entries.list.removeAll { $0.id == id }
      return gone
    }
    _ = removed
  }

  func contains(_ id: Int) -> Bool {
    storage.withLock { $0.list.contains { $0.id == id } }
  }

  func entries() -> [(id: Int, observer: Observer)] {
    storage.withLock { $0.list }
  }

  var count: Int { storage.withLock { $0.list.count } }
}
