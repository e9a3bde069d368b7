import Foundation
import Gutendex

/// Reads Project Gutenberg's feed as it arrives: the compressed bytes go through a bounded
/// pipe to a thread of its own, where libarchive expands them entry by entry and each record
/// becomes a book (``FeedRecordReader``). Nothing but the current record is ever expanded.
public enum FeedReader {
  /// Where the books of a feed go as they are read: an array (a feed held in memory), or a
  /// ``StreamedIndex`` (a sync, which never holds them all).
  protocol Books: Sendable {
    mutating func add(_ record: BookRecord) throws
  }

  /// What a feed held.
  struct Reading<Records: Books>: Sendable {
    /// The books the server would show, in feed order.
    var records: Records
    /// How many books were read (a repeated record counts each time).
    var count = 0
    /// Every id with a record Gutendex could read (hidden books too: the feed says they
    /// have no title or download count).
    var seen: Set<Int> = []
    /// Records that could not be read, skipped (the book keeps its previous copy).
    var skipped: [FeedRecordError] = []
    /// Each book's release date (`dcterms:issued`, `YYYY-MM-DD`) where the record gives one.
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
  static func read<Records: Books>(_ body: HTTPBody, into records: Records) async throws
    -> Reading<Records>
  {
    let pipe = FeedPipe()
    // Ctrl-C ends the transfer; the archive then reads a truncated stream and stops.
    return try await withTaskCancellationHandler {
      try await start(body, pipe, records)
    } onCancel: {
      body.cancel()
    }
  }

  private static func start<Records: Books>(
    _ body: HTTPBody, _ pipe: FeedPipe, _ records: Records
  ) async throws -> Reading<Records> {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        let outcome = Result { try readArchive(pipe, records) }
        pipe.closeReader()
        continuation.resume(with: outcome)
      }
      thread.stackSize = 1 << 20
      thread.start()
      Task {
        do {
          for try await piece in body {
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

  private static func readArchive<Records: Books>(_ pipe: FeedPipe, _ records: Records) throws
    -> Reading<Records>
  {
    var reading = Reading(records: records)
    let archive = FeedArchive(next: { try pipe.read() })
    func tooLarge(_ id: Int) {
      reading.skipped.append(FeedRecordError(id: id, reason: "a record too large"))
    }
    func record(_ id: Int, _ bytes: UnsafeRawBufferPointer) throws {
      let book: BookRecord?
      do throws(FeedRecordError) {
        if let (record, issued) = try FeedRecordReader.readDated(id: id, bytes: bytes) {
          book = record
          if let issued { reading.issued[id] = issued }
        } else {
          book = nil
        }
      } catch {
        reading.skipped.append(error)
        return
      }
      if let book {
        // What the sink throws (a full disk) ends the reading, unlike a broken record.
        try reading.records.add(book)
        reading.count += 1
      }
      reading.seen.insert(id)
    }
    try archive.forEachRecord(oversized: tooLarge, record)
    return reading
  }
}

extension [BookRecord]: FeedReader.Books {
  mutating func add(_ record: BookRecord) { append(record) }
}

extension StreamedIndex: FeedReader.Books {}
