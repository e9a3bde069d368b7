import Foundation
import Synchronization

/// Hands a download's pieces from the task that reads the network to the thread that
/// decompresses them, holding at most ``limit`` bytes: when the reader falls behind, the
/// network task waits (its transfer stops reading the socket), so memory stays bounded.
///
/// The reading side blocks (libarchive's read callback is synchronous), so it runs on a thread
/// of its own, never on the cooperative pool; the writing side suspends instead of blocking.
final class FeedPipe: Sendable {
  private struct State {
    var pieces: [Data] = []
    var buffered = 0
    var finished = false
    var failure: (any Error)?
    var readerGone = false
    var writerWaiting: CheckedContinuation<Void, Never>?
  }

  /// Bytes held before the writer waits.
  let limit: Int
  private let state = Mutex(State())
  // The reader's wait: a condition paired with `state`'s changes (signalled after each).
  private let condition = NSCondition()

  init(limit: Int = 4 << 20) {
    self.limit = limit
  }

  /// Adds a piece; suspends while the pipe is full. False when the reader has stopped.
  func write(_ piece: Data) async -> Bool {
    let accepted = state.withLock { state -> Bool in
      guard !state.readerGone else { return false }
      state.pieces.append(piece)
      state.buffered += piece.count
      return true
    }
    signal()
    guard accepted else { return false }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.buffered <= limit || state.readerGone { return true }
        state.writerWaiting = continuation
        return false
      }
      if ready { continuation.resume() }
    }
    return state.withLock { !$0.readerGone }
  }

  /// Ends the stream: cleanly (nil) or with the failure the reader will see.
  func finish(throwing failure: (any Error)? = nil) {
    state.withLock { state in
      state.finished = true
      state.failure = failure
    }
    signal()
  }

  /// The next piece, waiting for it; nil at the end. Throws the writer's failure.
  func read() throws -> Data? {
    while true {
      let (piece, waiter, done, failure) = state.withLock {
        state -> (Data?, CheckedContinuation<Void, Never>?, Bool, (any Error)?) in
        if !state.pieces.isEmpty {
          let piece = state.pieces.removeFirst()
          state.buffered -= piece.count
          var waiter: CheckedContinuation<Void, Never>?
          if state.buffered <= limit {
            waiter = state.writerWaiting
            state.writerWaiting = nil
          }
          return (piece, waiter, false, nil)
        }
        return (nil, nil, state.finished, state.failure)
      }
      waiter?.resume()
      if let piece { return piece }
      if done {
        if let failure { throw failure }
        return nil
      }
      condition.lock()
      // Checked again under the condition's lock, so a signal between the two is not lost.
      let empty = state.withLock { $0.pieces.isEmpty && !$0.finished }
      if empty { condition.wait() }
      condition.unlock()
    }
  }

  /// The reader stops (an error, or the archive ended): the writer's next write returns false.
  func closeReader() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.readerGone = true
      state.pieces.removeAll()
      state.buffered = 0
      defer { state.writerWaiting = nil }
      return state.writerWaiting
    }
    waiter?.resume()
  }

  private func signal() {
    condition.lock()
    condition.signal()
    condition.unlock()
  }
}
