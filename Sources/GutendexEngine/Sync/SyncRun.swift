import Foundation

/// One sync of the local catalogue: when, what it found, what it cost, how it ended.
public struct SyncRun: Sendable, Hashable, Codable {
  /// How a sync ended.
  public enum Result: String, Sendable, Hashable, Codable {
    /// Everything new was fetched and the catalogue replaced.
    case ok
    /// Stopped early (429, lost connection, Ctrl-C); what arrived is kept for the next sync.
    case partial
    /// Nothing could be fetched or written; the previous catalogue still answers.
    case failed
  }

  /// When it started.
  public var started: Date
  /// How long it took, in seconds.
  public var seconds: Double
  /// Books the local catalogue did not have.
  public var added: Int
  /// Books whose record changed.
  public var updated: Int
  /// Requests sent to the server (retries included).
  public var requests: Int
  /// How it ended.
  public var result: Result
  /// Why it stopped early or failed, one line; nil when it went well.
  public var note: String?
  /// Whether every page was fetched (`sync --full`).
  public var full: Bool
  /// What stopped it, nil when it went well.
  public var cause: Cause?
  /// How the refresh from Project Gutenberg's feed went; nil when this sync did not try one.
  public var feed: FeedOutcome?
  /// What each source did (today.rss, records, the catalogue list, the feed, the API), in the
  /// order asked; nil in a run logged before sources were counted.
  public var sources: [SourceCounts]?
  /// The books this sync removed because PG no longer lists them (nil: none).
  public var removedIDs: [Int]?

  /// How many books this sync removed.
  public var removed: Int { removedIDs?.count ?? 0 }

  /// Bytes received from every source that counts them (nil when none did).
  public var bytes: Int64? {
    let counted = (sources ?? []).filter { $0.source != .api }
    return counted.isEmpty ? nil : counted.reduce(0) { $0 + $1.bytes }
  }

  /// What stopped a sync before the end.
  public enum Cause: String, Sendable, Hashable, Codable {
    /// The server could not be reached, or broke off.
    case unavailable
    /// The server kept answering 429.
    case rateLimited
    /// The server sent something that is not a Gutendex answer.
    case badData
    /// Ctrl-C (the task was cancelled).
    case cancelled
    /// A file of the local catalogue could not be read or written (a full disk, say).
    case files
    /// Another sync of the same data directory was running.
    case busy
  }

  /// A run with these figures.
  public init(
    started: Date, seconds: Double, added: Int, updated: Int, requests: Int, result: Result,
    note: String? = nil, full: Bool = false
  ) {
    self.started = started
    self.seconds = seconds
    self.added = added
    self.updated = updated
    self.requests = requests
    self.result = result
    self.note = note
    self.full = full
  }
}
