import Foundation
import Gutendex

/// Reads Project Gutenberg's feed as it arrives: the compressed bytes go through a bounded
/// pipe to a thread of its own, where libarchive expands them entry by entry and each record
/// becomes a book (``FeedRecordReader``). Nothing but the current record is ever expanded.
public enum FeedReader {
  /// What a feed held.
  struct Reading: Sendable {
    /// The books the server would show, in feed order.
    var records: [BookRecord] = []
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
  public struct Books: Sendable {
    /// The books, one JSON object each, in feed order.
    public var books: [Data]
    /// Skipped records: id → reason.
    public var skipped: [Int: String]
  }

  /// Reads a whole feed file held in memory (tests and tools; a sync streams).
  public static func books(fromFeed data: Data) async throws -> Books {
    let reading = try await read(HTTPBody(data))
    return Books(
      books: reading.records.map { Data($0.json) },
      skipped: Dictionary(
        reading.skipped.map { ($0.id, $0.reason) }, uniquingKeysWith: { first, _ in first }))
  }

  /// Reads the feed from `body`; throws ``FeedArchive/Failure`` when the archive is not a
  /// readable tar (with the network's own error inside when that is what stopped it).
  static func read(_ body: HTTPBody) async throws -> Reading {
    let pipe = FeedPipe()
    // Ctrl-C ends the transfer; the archive then reads a truncated stream and stops.
    return try await withTaskCancellationHandler {
      try await start(body, pipe)
    } onCancel: {
      body.cancel()
    }
  }

  private static func start(_ body: HTTPBody, _ pipe: FeedPipe) async throws -> Reading {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread {
        let outcome = Result { try readArchive(pipe) }
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

  private static func readArchive(_ pipe: FeedPipe) throws -> Reading {
    var reading = Reading()
    let archive = FeedArchive(next: { try pipe.read() })
    func tooLarge(_ id: Int) {
      reading.skipped.append(FeedRecordError(id: id, reason: "a record too large"))
    }
    func record(_ id: Int, _ bytes: UnsafeRawBufferPointer) {
      do throws(FeedRecordError) {
        if let (record, issued) = try FeedRecordReader.readDated(id: id, bytes: bytes) {
          reading.records.append(record)
          if let issued { reading.issued[id] = issued }
        }
        reading.seen.insert(id)
      } catch {
        reading.skipped.append(error)
      }
    }
    try archive.forEachRecord(oversized: tooLarge, record)
    return reading
  }
}
