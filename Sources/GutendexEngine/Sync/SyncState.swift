import Foundation

/// What the data directory records about its local catalogue: which index file is current,
/// how many of its books came from syncs, and the last syncs. Written atomically with the
/// index's name in it, so the pair always agrees.
public struct SyncState: Sendable, Hashable, Codable {
  /// How many runs the log keeps.
  public static let logLimit = 20

  /// The current index file's name in the catalogue directory; nil before the first sync that
  /// wrote one (the embedded snapshot answers).
  public var indexFile: String?
  /// The embedded snapshot the index was built on (`2025-08`).
  public var snapshotDate: String
  /// The delta index file's name (the books synced since the base was built, summaries
  /// kept), nil when no sync brought anything since.
  public var deltaFile: String?
  /// Books in the local catalogue, in all (the base's and those added since).
  public var bookCount: Int
  /// Books in the base (the snapshot, or the last feed refresh); nil in a state written before
  /// the delta, where ``bookCount`` minus ``syncedBooks`` stands in.
  public var baseBooks: Int?
  /// Books added since the base was built (synced books the base does not hold).
  public var addedBooks: Int?
  /// Books whose record came from the server (their ids are in `synced-ids.json`, read only by
  /// a sync, so that opening the catalogue stays cheap).
  public var syncedBooks: Int
  /// Held books (favourites, library) the server no longer has: kept, and marked.
  public var missingIDs: [Int]
  /// When the last sync that went well finished.
  public var lastSuccess: Date?
  /// The last runs, oldest first (at most ``logLimit``).
  public var runs: [SyncRun]
  /// The last refresh from Project Gutenberg's feed; nil when there was none.
  public var feed: FeedState?
  /// What the last syncs from Project Gutenberg's small files recorded; nil before the first.
  public var gutenberg: GutenbergState?

  /// A state for a catalogue that is still the embedded snapshot of `snapshotDate`.
  public init(snapshotDate: String, bookCount: Int) {
    indexFile = nil
    self.snapshotDate = snapshotDate
    self.bookCount = bookCount
    syncedBooks = 0
    missingIDs = []
    lastSuccess = nil
    runs = []
  }

  /// The most recent run, if any.
  public var lastRun: SyncRun? { runs.last }

  /// Books still as the snapshot has them.
  public var snapshotBooks: Int { max(0, bookCount - syncedBooks) }

  /// Books in the base the catalogue was built on.
  public var booksFromBase: Int { baseBooks ?? max(0, bookCount - (addedBooks ?? 0)) }

  /// Books added since the base was built.
  public var booksAddedSince: Int { addedBooks ?? max(0, bookCount - booksFromBase) }

  /// Adds `run` to the log, dropping the oldest beyond ``logLimit``.
  public mutating func record(_ run: SyncRun) {
    runs.append(run)
    if runs.count > Self.logLimit { runs.removeFirst(runs.count - Self.logLimit) }
    if run.result == .ok { lastSuccess = run.started.addingTimeInterval(run.seconds) }
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()
}
