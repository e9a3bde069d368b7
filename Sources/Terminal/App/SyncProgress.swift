import Catalog
import Foundation
import Synchronization

/// What `sync` shows on a terminal while it runs, from the sync's own events (``SyncProgressEvent``):
/// the API's pages and books with their rate, or the feed's bytes and books. It reads no file.
final class SyncProgress: Sendable {
  /// The counts so far.
  struct Counts: Sendable, Hashable {
    var pages = 0
    var books = 0
    /// The feed's bytes received, once it is being read (nil before).
    var feedBytes: Int64?
    /// The feed's length, when its server announced it.
    var feedTotal: Int64?
    /// Books read from the feed.
    var feedBooks = 0
    /// Project Gutenberg's per-book records fetched (nil before the first), of how many.
    var records: Int?
    var recordsDue = 0
  }

  private let counts = Mutex(Counts())

  /// A meter at zero.
  init() {}

  /// One event of the sync (from any thread).
  func record(_ event: SyncProgressEvent) {
    counts.withLock { counts in
      switch event {
      case .page(let books):
        counts.pages += 1
        counts.books += books
      case .feed(let bytes, let total, let books):
        counts.feedBytes = bytes
        counts.feedTotal = total
        counts.feedBooks = books
      case .record(let books, let of):
        counts.records = books
        counts.recordsDue = of
      }
    }
  }

  /// The counts so far.
  var current: Counts { counts.withLock { $0 } }

  /// The line for `counts` after `seconds`: `sync: 12 pages · 384 books · 3.1 pages/s`, or while
  /// the feed is read, `sync: feed 12.4 MiB of 130.6 MiB · 4,210 books · 1.6 MiB/s`.
  static func text(_ counts: Counts, seconds: Double) -> String {
    if let records = counts.records, counts.feedBytes == nil {
      return "sync: Project Gutenberg records \(TextFormat.grouped(records)) of "
        + TextFormat.grouped(counts.recordsDue)
    }
    if let bytes = counts.feedBytes {
      let rate = seconds > 0 ? Int(Double(bytes) / seconds) : 0
      let of = counts.feedTotal.map { " of \(TextFormat.bytes(Int($0)))" } ?? ""
      return "sync: feed \(TextFormat.bytes(Int(bytes)))\(of) · "
        + "\(TextFormat.plural(counts.feedBooks, "book")) · \(TextFormat.bytes(rate))/s"
    }
    return text(pages: counts.pages, books: counts.books, seconds: seconds)
  }

  /// `sync: 12 pages · 384 books · 3.1 pages/s`.
  static func text(pages: Int, books: Int, seconds: Double) -> String {
    let rate = seconds > 0 ? Double(pages) / seconds : 0
    let tenths = Int((rate * 10).rounded())
    return "sync: \(TextFormat.plural(pages, "page")) · \(TextFormat.plural(books, "book")) · "
      + "\(tenths / 10).\(tenths % 10) pages/s"
  }
}
