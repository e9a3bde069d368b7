import Foundation
import Synchronization
import TestSupport
import Testing

@testable import GutendexEngine

/// ``FeedRecordQueue`` hands records between the archive's thread and the parser's in order,
/// holds no more than its limit, and stops the producer once the consumer has failed.
@Suite struct FeedRecordQueueTests {
  @Test func itemsArriveInOrderAndTheProducerWaitsWhileTheQueueIsFull() async throws {
    let queue = FeedRecordQueue(limit: 10)
    let pushed = Atomic<Int>(0)
    let producer = Thread {
      for id in 1...5 {
        _ = queue.push(.record(id, Array(repeating: UInt8(id), count: 6)))
        pushed.add(1, ordering: .sequentiallyConsistent)
      }
      _ = queue.push(.oversized(6))
      queue.close()
    }
    producer.start()
    // 6 bytes fit, a second 6 would make 12 > 10: the producer waits after the first.
    try await Awaiting.condition("the first record to be pushed") {
      pushed.load(ordering: .sequentiallyConsistent) == 1
    }
    // It stays at one while nothing is taken (checked after it has had every chance to go on).
    for _ in 0..<50 { await Task.yield() }
    #expect(pushed.load(ordering: .sequentiallyConsistent) == 1)
    var ids: [Int] = []
    while let item = queue.pop() {
      switch item {
      case .record(let id, let bytes):
        #expect(bytes == Array(repeating: UInt8(id), count: 6))
        ids.append(id)
      case .oversized(let id): ids.append(-id)
      }
    }
    #expect(ids == [1, 2, 3, 4, 5, -6])
  }

  @Test func aRecordLargerThanTheLimitStillPassesAlone() {
    let queue = FeedRecordQueue(limit: 4)
    #expect(queue.push(.record(1, Array(repeating: 0, count: 100))))
    queue.close()
    guard case .record(1, let bytes)? = queue.pop() else {
      Issue.record("the large record was not handed over")
      return
    }
    #expect(bytes.count == 100)
    #expect(queue.pop() == nil)
  }

  @Test func aConsumerThatStopsReleasesAWaitingProducer() async throws {
    let queue = FeedRecordQueue(limit: 4)
    #expect(queue.push(.record(1, [1, 2, 3, 4])))
    let refused = Mutex<Bool?>(nil)
    let producer = Thread {
      // Full: this waits until the consumer stops, then is refused.
      let accepted = queue.push(.record(2, [5]))
      refused.withLock { $0 = !accepted }
    }
    producer.start()
    queue.stopConsuming()
    try await Awaiting.condition("the waiting push to return") {
      refused.withLock { $0 } != nil
    }
    #expect(refused.withLock { $0 } == true)
    #expect(!queue.push(.oversized(3)))
  }
}
