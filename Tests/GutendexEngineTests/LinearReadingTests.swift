import Foundation
import Gutendex
import Synchronization
import TestSupport
import Testing

@testable import GutendexEngine

/// Every text pass over a record is linear in its size (issue 35, class 2): a title of blanks
/// (quadratic in `fixSubtitles`: +116 s at 400,000 spaces) or of many words (quadratic in the
/// vocabulary's once-per-text scan) costs about what an ordinary title of the same size does.
/// Each check is a ratio to a baseline measured in the same test, generously, in this thread's
/// CPU time (the best of three runs each), so a busy machine's other work does not count.
@Suite("Linear reading")
struct LinearReadingTests {
  /// The title's size: big enough that a quadratic pass takes seconds (128 Ki² steps), small
  /// enough that it ends (the binary's test reads 8 MiB).
  static let size = 128 << 10

  /// The least CPU time of this thread over `runs` runs of `body`: a busy machine's other
  /// work does not count (every test runs beside the others), and the best of three leaves
  /// out the odd pause.
  static func best(of runs: Int = 3, _ body: () throws -> Void) rethrows -> Duration {
    func cpu() -> Duration {
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
    var best = Duration.seconds(1_000_000)
    for _ in 0..<runs {
      let start = cpu()
      try body()
      best = min(best, cpu() - start)
    }
    return best
  }

  static func text(_ unit: String, size: Int = size) -> String {
    String(String(repeating: unit, count: size / unit.utf8.count + 1).prefix(size))
  }

  /// A feed record with `title`, read as a sync reads it.
  static func read(title: String) throws {
    let xml = FeedRecordTests.record(id: 90_001, extra: "", title: title)
    let record = try Array(xml.utf8).withUnsafeBytes {
      try FeedRecordReader.read(id: 90_001, bytes: $0)
    }
    #expect(record?.title.utf8.count == title.utf8.count)
  }

  @Test func aTitleOfBlanksReadsInLinearTime() async throws {
    try await OwnThread.run {
      let ordinary = Self.text("Lorem ipsum dolor sit amet. ")
      let baseline = try Self.best { try Self.read(title: ordinary) }
      for blanks in [Self.text(" "), Self.text(" \t"), Self.text("a ")] {
        let time = try Self.best { try Self.read(title: blanks) }
        #expect(
          time <= baseline * 5 + .milliseconds(50),
          "\(blanks.prefix(2).debugDescription): \(time) against \(baseline)")
      }
    }
  }

  /// Eight times the title, about eight times the time, ordinary or blank (a quadratic pass
  /// gives sixty-four: appending to a `String.UnicodeScalarView` copied it each time).
  @Test func aTitleReadsInTimeLinearInItsSize() async throws {
    try await OwnThread.run {
      for unit in ["Lorem ipsum dolor sit amet. ", " ", "a\n b"] {
        let small = try Self.best { try Self.read(title: Self.text(unit)) }
        let large = try Self.best { try Self.read(title: Self.text(unit, size: 8 * Self.size)) }
        #expect(
          large <= small * 20 + .milliseconds(50),
          "\(unit.debugDescription): \(large) for 8x against \(small)")
      }
    }
  }

  /// The vocabulary pass over a title of ever new words (a hostile record) against one of a
  /// few words repeated, the same size.
  @Test func aTitleOfManyWordsIndexesInLinearTime() async throws {
    try await OwnThread.run {
      func index(_ title: String) throws -> Duration {
        let engine = try Fixture.engine()
        var record = try #require(try engine.allRecords().first)
        record.title = title
        return try Self.best { _ = try CatalogueSnapshot.make(records: [record]) }
      }
      let repeated = try index(Self.text("word "))
      var words = ""
      var number = 0
      while words.utf8.count < Self.size {
        words += "w\(String(number, radix: 26)) "
        number += 1
      }
      let distinct = try index(words)
      #expect(distinct <= repeated * 20 + .milliseconds(100), "\(distinct) against \(repeated)")
    }
  }
}

/// Ctrl-C during a feed's reading ends it at the next record (issue 35, class 2: it went on
/// through every record it had, and a quadratic one kept it for hours): no book is taken after
/// the cancellation.
@Suite("Feed reading cancelled")
struct FeedCancellationTests {
  /// Where the reader's books go: the first one waits until the test has cancelled, and every
  /// one after the cancellation is counted.
  struct Sink: FeedReader.Books {
    let state: State

    final class State: Sendable {
      let added = Atomic(0)
      let cancelled = Atomic(false)
      let addedAfterCancel = Atomic(0)
      let firstArrived = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
    }

    mutating func add(_ record: BookRecord, issued: String?) throws {
      if state.cancelled.load(ordering: .relaxed) {
        state.addedAfterCancel.add(1, ordering: .relaxed)
      }
      if state.added.add(1, ordering: .relaxed).newValue == 1 {
        state.firstArrived.signal()
        state.release.wait()
      }
    }
  }

  @Test func noBookIsTakenAfterCtrlC() async throws {
    let books = Array(try FeedReaderTests.fixtureBooks().prefix(200))
    let feed = try FeedReaderTests.feed(books: books)
    let state = Sink.State()
    // Off the cooperative pool, which a full run's other tests keep busy.
    let task = Task(executorPreference: OwnThread.executor()) {
      try await FeedReader.read(HTTPBody(feed), into: Sink(state: state))
    }
    // Blocking waits, on a thread of their own, with a deadline that does not count the time
    // the machine was starved of CPU.
    try await OwnThread.run {
      let deadline = StarvedDeadline(.seconds(120))
      var arrived = false
      while !arrived, !deadline.hasPassed {
        arrived = state.firstArrived.wait(timeout: .now() + 0.1) == .success
      }
      #expect(arrived, "no book was read")
    }
    task.cancel()
    state.cancelled.store(true, ordering: .relaxed)
    state.release.signal()
    let result = await task.result
    #expect(throws: (any Error).self) { try result.get() }
    #expect(state.addedAfterCancel.load(ordering: .relaxed) == 0)
    #expect(state.added.load(ordering: .relaxed) < books.count)
  }
}
