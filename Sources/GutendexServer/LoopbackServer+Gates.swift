import Foundation

/// Held and stalled responses, which a test lets go of on an event of its own instead of
/// racing a client's timeout against steps that take unbounded time on a loaded machine.
extension LoopbackServer {
  /// How many responses are stalled now (``FaultPlan/stallAfterHeaders``,
  /// ``FaultPlan/stallMidBody``), waiting for their client to give up.
  public var stallCount: Int { state.withLock { $0.stalledSockets.count } }

  /// Ends every stalled response now by closing its connection, as a server that went away
  /// would (the client sees the body end early); returns how many it ended. The server goes on
  /// serving.
  @discardableResult
  public func endStalls() -> Int {
    state.withLock { state in
      // Under the lock: a stalled connection leaves the set (under the lock) before it is
      // closed, so none of these descriptors has been closed and reused since.
      for socket in state.stalledSockets { _ = shutdown(socket, Int32(SHUT_RDWR)) }
      defer { state.stalledSockets = [] }
      return state.stalledSockets.count
    }
  }

  /// Marks a connection's response as stalled (`true`) or no longer (`false`).
  func setStalled(_ socket: Int32, _ stalled: Bool) {
    state.withLock { state in
      if stalled {
        state.stalledSockets.insert(socket)
      } else {
        state.stalledSockets.remove(socket)
      }
    }
  }

  /// How many requests wait now for ``releaseHeld()`` (``FaultPlan/holdUntilReleased``).
  public var heldCount: Int { state.withLock { $0.held.count } }

  /// Lets every held request be answered now; returns how many there were. A request that
  /// arrives later under a plan that holds is held again.
  @discardableResult
  public func releaseHeld() -> Int {
    let held = state.withLock { state in
      defer { state.held = [] }
      return state.held
    }
    for continuation in held { continuation.resume() }
    return held.count
  }

  /// Returns once ``releaseHeld()`` is called, or at once when the server is stopping.
  func waitUntilReleased() async {
    await withCheckedContinuation { continuation in
      let go = state.withLock { state -> Bool in
        if state.stopping { return true }
        state.held.append(continuation)
        return false
      }
      if go { continuation.resume() }
    }
  }
}
