import CBzip2
import Foundation
import Gutendex
import Synchronization

/// Reads Project Gutenberg's feed as it arrives: the compressed bytes go through a bounded
/// pipe to a thread of its own, where their bzip2 blocks are handed to two more threads to
/// decompress (``ParallelBzip2``) and libarchive reads the tar they make entry by entry; each
/// record becomes a book (``FeedRecordReader``) on a fourth thread. Nothing but a few blocks
/// and the current record is ever expanded.
public enum FeedReader {
  /// Where the books of a feed go as they are read: an array (a feed held in memory), or a
  /// ``StreamedIndex`` (a sync, which never holds them all).
  protocol Books: Sendable {
    /// Adds a book, with the release date its record gives (`dcterms:issued`).
    mutating func add(_ record: BookRecord, issued: String?) throws
    /// Notes a record Gutendex could read (a hidden book's too).
    mutating func saw(_ id: Int) throws
    /// Whether ``Reading`` keeps the ids seen and the release dates in memory (a feed read
    /// into memory); a streamed index keeps them on disk, so a refresh holds neither.
    static var keepsIDs: Bool { get }
  }

  /// What a feed held.
  struct Reading<Records: Books>: Sendable {
    /// The books the server would show, in feed order.
    var records: Records
    /// How many books were read (a repeated record counts each time).
    var count = 0
    /// Every id with a record Gutendex could read (hidden books too: the feed says they
    /// have no title or download count), when `Records.keepsIDs` (else the sink has them).
    var seen: Set<Int> = []
    /// Records that could not be read, skipped (the book keeps its previous copy).
    var skipped: [FeedRecordError] = []
    /// Records kept with lists cut to ``IndexLimits`` (the reason says which).
    var cut: [FeedRecordError] = []
    /// Each book's release date (`dcterms:issued`, `YYYY-MM-DD`) where the record gives one,
    /// when `Records.keepsIDs` (else the sink has them).
    var issued: [Int: String] = [:]
  }

  /// What ``books(fromFeed:)`` read: each book's JSON as the server serializes it, and the
  /// ids of the records it skipped with why.
  public struct Read: Sendable {
    /// The books, one JSON object each, in feed order.
    public var books: [Data]
    /// Skipped records: id → reason.
    public var skipped: [Int: String]
  }

  /// Reads a whole feed file held in memory (tests and tools; a sync streams).
  public static func books(fromFeed data: Data) async throws -> Read {
    let reading = try await read(HTTPBody(data), into: [BookRecord]())
    return Read(
      books: reading.records.map { Data($0.json) },
      skipped: Dictionary(
        reading.skipped.map { ($0.id, $0.reason) }, uniquingKeysWith: { first, _ in first }))
  }

  /// Reads the feed from `body`, each book into `records` as it is read; throws
  /// ``FeedArchive/Failure`` when the archive is not a readable tar (with the network's own
  /// error inside when that is what stopped it), or what `records` threw.
  /// `progress` hears the bytes received and the books read so far, after each piece of the
  /// body and each book (from the transfer's task and the parsing thread).
  static func read<Records: Books>(
    _ body: HTTPBody, into records: Records, progress: FeedProgress = FeedProgress()
  ) async throws -> Reading<Records> {
    let pipe = FeedPipe()
    let stop = Stop()
    // Ctrl-C ends the transfer (the archive then reads a truncated stream and stops) and the
    // parsing, which checks between records: it ends within a record's time.
    return try await withTaskCancellationHandler {
      try await start(body, pipe, records, progress, stop)
    } onCancel: {
      stop.flag.store(true, ordering: .relaxed)
      body.cancel()
    }
  }

  /// Set once the reading is cancelled; the parsing thread checks it between records.
  private final class Stop: Sendable {
    let flag = Atomic(false)
  }

  private static func start<Records: Books>(
    _ body: HTTPBody, _ pipe: FeedPipe, _ records: Records, _ progress: FeedProgress,
    _ stop: Stop
  ) async throws -> Reading<Records> {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        let outcome = Result { try readArchive(pipe, records, progress, stop) }
        pipe.closeReader()
        continuation.resume(with: outcome)
      }
      thread.stackSize = 1 << 20
      thread.start()
      Task {
        do {
          for try await piece in body {
            progress.received(piece.count)
            guard await pipe.write(piece) else {
              body.cancel()
              break
            }
          }
          pipe.finish()
        } catch {
          pipe.finish(throwing: error)
        }
      }
    }
  }

  /// Expands the archive on this thread and parses its records on a second one, in archive
  /// order, through a bounded ``FeedRecordQueue``.
  private static func readArchive<Records: Books>(
    _ pipe: FeedPipe, _ records: Records, _ progress: FeedProgress, _ stop: Stop
  ) throws -> Reading<Records> {
    let queue = FeedRecordQueue()
    let parsed = ParsedReading<Records>()
    let parser = Thread {
      let outcome = Result {
        try parse(queue, into: Reading(records: records), progress: progress, stop: stop)
      }
      // A sink that failed (a full disk) stops the archive too; its records would go nowhere.
      if case .failure = outcome { queue.stopConsuming() }
      parsed.finish(outcome)
    }
    parser.stackSize = 1 << 20
    parser.start()

    let archive = FeedArchive(
      next: { try pipe.read() }, isCancelled: { stop.flag.load(ordering: .relaxed) })
    let expanded = Result {
      try archive.forEachRecord(oversized: { _ = queue.push(.oversized($0)) }) { id, bytes in
        guard queue.push(.record(id, Array(bytes))) else { throw ParserStopped() }
      }
    }
    queue.close()
    let reading = parsed.wait()
    // The blocks, buffers, decoders and parsed records are gone: their memory goes back to the
    // system before the index is built (the refresh's peak), not kept by malloc for reuse.
    gb_return_freed_memory()
    try expanded.get()
    return try reading.get()
  }

  /// The archive's side stopped because the parsing side had failed (its error is the one
  /// thrown).
  private struct ParserStopped: Error {}

  /// The parsing thread's result, handed to the archive's thread once it is done.
  private final class ParsedReading<Records: Books>: Sendable {
    private let result = Mutex<Result<Reading<Records>, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ outcome: Result<Reading<Records>, any Error>) {
      result.withLock { $0 = outcome }
      done.signal()
    }

    func wait() -> Result<Reading<Records>, any Error> {
      done.wait()
      return result.withLock { $0! }
    }
  }

  /// Reads each record the queue hands over into `reading`, until the queue is closed.
  private static func parse<Records: Books>(
    _ queue: FeedRecordQueue, into start: Reading<Records>, progress: FeedProgress,
    stop: Stop
  ) throws -> Reading<Records> {
    var reading = start
    while let item = queue.pop() {
      if stop.flag.load(ordering: .relaxed) { throw CancellationError() }
      switch item {
      case .oversized(let id):
        reading.skipped.append(FeedRecordError(id: id, reason: "a record too large"))
      case .record(let id, let bytes):
        let read = bytes.withUnsafeBytes { bytes in
          Result { () throws(FeedRecordError) in
            try FeedRecordReader.readDated(id: id, bytes: bytes)
          }
        }
        let book: BookRecord?
        let issued: String?
        switch read {
        case .success(let dated):
          book = dated?.record
          issued = dated?.issued
          if let issued, Records.keepsIDs { reading.issued[id] = issued }
          if let cuts = dated?.cuts, !cuts.isEmpty {
            reading.cut.append(FeedRecordError(id: id, reason: cuts.joined(separator: ", ")))
          }
        case .failure(let error):
          reading.skipped.append(error)
          continue
        }
        if let book {
          // What the sink throws (a full disk) ends the reading, unlike a broken record.
          try reading.records.add(book, issued: issued)
          reading.count += 1
          progress.read(books: reading.count)
        }
        if Records.keepsIDs { reading.seen.insert(id) } else { try reading.records.saw(id) }
      }
    }
    return reading
  }
}

extension FeedReader.Books {
  mutating func saw(_ id: Int) throws {}
  static var keepsIDs: Bool { true }
}

extension [BookRecord]: FeedReader.Books {
  mutating func add(_ record: BookRecord, issued: String?) { append(record) }
}

extension StreamedIndex: FeedReader.Books {
  mutating func add(_ record: BookRecord, issued: String?) throws {
    try add(record, issued: issued, superseded: false)
  }

  static var keepsIDs: Bool { false }
}
