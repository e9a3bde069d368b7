import Foundation
import Gutendex
import Synchronization

/// What `sync` shows on a terminal while it runs: pages fetched, books received, the rate.
/// Pages are counted from the client's answers (every request of the process goes through
/// ``record(_:)``); books from the sync's journal, read as it grows (only the new bytes).
final class SyncProgress: Sendable {
  private let pages = Atomic<Int>(0)
  private let journal: URL
  private let read = Mutex<(offset: UInt64, books: Int)>((0, 0))
  private let startPages = Atomic<Int>(0)

  /// A meter over the data directory's sync journal.
  init(dataDirectory: URL) {
    journal = dataDirectory.appendingPathComponent("catalogue", isDirectory: true)
      .appendingPathComponent("pending.jsonl")
  }

  /// One answer of the server: a page when it succeeded.
  func record(_ event: RequestEvent) {
    if let status = event.status, (200..<300).contains(status) {
      pages.add(1, ordering: .relaxed)
    }
  }

  /// Counts from now: what an earlier, interrupted sync journaled is not this run's.
  func start() {
    startPages.store(pages.load(ordering: .relaxed), ordering: .relaxed)
    let size = (try? FileManager.default.attributesOfItem(atPath: journal.path))?[.size] as? Int
    read.withLock { $0 = (UInt64(size ?? 0), 0) }
  }

  /// Pages answered since ``start()``.
  var pagesSoFar: Int { pages.load(ordering: .relaxed) - startPages.load(ordering: .relaxed) }

  /// Books written to the journal since ``start()`` (one line each).
  func booksSoFar() -> Int {
    read.withLock { state in
      guard let fd = try? RegularFile.open(journal.path, flags: O_RDONLY) else {
        return state.books
      }
      let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
      defer { try? handle.close() }
      let size = (try? handle.seekToEnd()) ?? 0
      // A journal that shrank was replaced (the sync finished): keep the count.
      guard size > state.offset else { return state.books }
      try? handle.seek(toOffset: state.offset)
      let bytes = (try? handle.read(upToCount: Int(size - state.offset))) ?? Data()
      state.offset += UInt64(bytes.count)
      state.books += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      return state.books
    }
  }

  /// `sync: 12 pages · 384 books · 3.1 pages/s`.
  static func text(pages: Int, books: Int, seconds: Double) -> String {
    let rate = seconds > 0 ? Double(pages) / seconds : 0
    let tenths = Int((rate * 10).rounded())
    return "sync: \(TextFormat.plural(pages, "page")) · \(TextFormat.plural(books, "book")) · "
      + "\(tenths / 10).\(tenths % 10) pages/s"
  }
}
