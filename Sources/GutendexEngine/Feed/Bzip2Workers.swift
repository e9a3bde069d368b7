import Foundation

/// The threads that decode bzip2 blocks (``Bzip2Job``), each with its own libbz2 decoder, in
/// the order they were submitted. Plain threads, not the cooperative pool: a block takes tens
/// of milliseconds of CPU, and the control thread blocks waiting for it.
final class Bzip2Workers: @unchecked Sendable {
  // Sendable: `jobs`, `closed` and `running` are read and written only while `condition` is
  // locked (each method takes it first).

  private let condition = NSCondition()
  private var jobs: [Bzip2Job] = []
  private var closed = false
  private var running = 0

  /// Starts `count` threads.
  init(count: Int) {
    running = count
    for index in 0..<count {
      let thread = Thread { [self] in work() }
      thread.name = "bzip2 \(index + 1)"
      thread.stackSize = 1 << 20
      thread.start()
    }
  }

  /// Queues `job` for the next free thread.
  func submit(_ job: Bzip2Job) {
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Stops the threads once their current block is done (queued ones are dropped), and waits
  /// for them to end.
  func close() {
    condition.lock()
    closed = true
    jobs.removeAll()
    condition.broadcast()
    while running > 0 { condition.wait() }
    condition.unlock()
  }

  private func work() {
    let decoder = Bzip2Decoder()
    while let job = take() {
      job.run(on: decoder)
    }
    condition.lock()
    running -= 1
    condition.broadcast()
    condition.unlock()
  }

  private func take() -> Bzip2Job? {
    condition.lock()
    defer { condition.unlock() }
    while jobs.isEmpty, !closed { condition.wait() }
    guard !closed else { return nil }
    return jobs.removeFirst()
  }
}
