import Foundation

/// What the last feed refresh recorded: where from, the validators of the file it read (for
/// the next conditional request), and when.
public struct FeedState: Sendable, Hashable, Codable {
  /// The feed's URL.
  public var url: String
  /// The file's `ETag`, sent back as `If-None-Match`.
  public var etag: String?
  /// The file's `Last-Modified`, sent back as `If-Modified-Since`.
  public var lastModified: String?
  /// When the catalogue was last rebuilt from the feed.
  public var refreshed: Date?
  /// When the feed was last read or found unchanged (the age the policy measures).
  public var checked: Date?
  /// Books the last refresh read from the feed.
  public var books: Int

  /// A state for `url` with nothing read yet.
  public init(url: String) {
    self.url = url
    books = 0
  }
}

/// How the feed part of a sync went.
public struct FeedOutcome: Sendable, Hashable, Codable {
  /// What happened to the feed.
  public enum Result: String, Sendable, Hashable, Codable {
    /// Read whole; the catalogue was rebuilt from it.
    case refreshed
    /// The server said the file has not changed (304): nothing downloaded.
    case unchanged
    /// It could not be had or read; the previous catalogue stays.
    case failed
  }

  /// What happened.
  public var result: Result
  /// Books read from the feed.
  public var books: Int
  /// Records Gutendex could not read either (bad XML, say), skipped: their ids.
  public var skipped: [Int]
  /// Why it failed, or which records were skipped; one line.
  public var note: String?
  /// Requests sent for the feed (redirects included).
  public var requests: Int
  /// What stopped it when it failed: the network (`unavailable`), a file that is not the
  /// feed (`badData`), or the local files.
  public var cause: SyncRun.Cause?
  /// Books it added that the catalogue did not have (nil in a run logged before it was counted).
  public var added: Int?
  /// Books it had whose record changed (nil in a run logged before it was counted).
  public var changed: Int?
  /// Books the feed no longer lists, removed from the catalogue.
  public var removedIDs: [Int]?
  /// Bytes of the archive received.
  public var bytes: Int64?
  /// Books held here the feed lacks that were kept all the same, because so many are missing
  /// that the file is more likely incomplete than PG's catalogue smaller (nil: none).
  public var keptMissing: Int?

  /// An outcome.
  public init(
    result: Result, books: Int = 0, skipped: [Int] = [], note: String? = nil, requests: Int = 0
  ) {
    self.result = result
    self.books = books
    self.skipped = skipped
    self.note = note
    self.requests = requests
  }
}
