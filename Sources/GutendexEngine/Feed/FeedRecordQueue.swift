import Foundation

/// Hands the feed's expanded records from the thread that decompresses the archive to the
/// thread that parses them, holding at most ``limit`` bytes: decompression (bzip2, one core)
/// and parsing (libxml2 and the reader, about as much again) then overlap on two cores instead
/// of taking turns, and memory stays bounded when either falls behind.
final class FeedRecordQueue: @unchecked Sendable {
  // Sendable: every stored property below `limit` is read and written only while `condition`
  // is locked (each method takes it first), so the two threads never touch them at once.

  /// One entry of the archive, in archive order.
  enum Item: Equatable {
    /// A record's id and its bytes.
    case record(Int, [UInt8])
    /// A record beyond ``FeedArchive/recordLimit``, skipped unread.
    case oversized(Int)
  }

  /// Record bytes held before the producer waits: 1 MiB is a few hundred records, enough to
  /// smooth the two threads' pace; more would only add to the refresh's peak memory.
  let limit: Int
  private let condition = NSCondition()
  private var items: [Item] = []
  private var head = 0
  private var held = 0
  private var closed = false
  private var consumerGone = false

  init(limit: Int = 1 << 20) {
    self.limit = limit
  }

  /// Adds an item, waiting while the queue is full; false once the consumer has stopped.
  func push(_ item: Item) -> Bool {
    let size = if case .record(_, let bytes) = item { bytes.count } else { 0 }
    condition.lock()
    defer { condition.unlock() }
    // One record larger than the limit still goes through once the queue is empty.
    while !consumerGone, held > 0, held + size > limit { condition.wait() }
    guard !consumerGone else { return false }
    items.append(item)
    held += size
    condition.broadcast()
    return true
  }

  /// The next item, waiting for it; nil once the producer has closed the queue and it is empty.
  func pop() -> Item? {
    condition.lock()
    defer { condition.unlock() }
    while head == items.count, !closed { condition.wait() }
    guard head < items.count else { return nil }
    let item = items[head]
    items[head] = .oversized(0)
    head += 1
    if head == items.count {
      items.removeAll(keepingCapacity: true)
      head = 0
    }
    if case .record(_, let bytes) = item { held -= bytes.count }
    condition.broadcast()
    return item
  }

  /// The producer is done: the consumer drains what is left, then ``pop()`` returns nil.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  /// The consumer stopped (its sink failed): pending and later pushes return false.
  func stopConsuming() {
    condition.lock()
    consumerGone = true
    items.removeAll()
    head = 0
    held = 0
    condition.broadcast()
    condition.unlock()
  }
}
