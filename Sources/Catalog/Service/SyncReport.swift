import Foundation
import GutendexEngine

/// One sync of the local catalogue as the front shows it: when, what it found, what it cost,
/// how it ended and why (typed, so the front decides by cause, never by message text).
public struct SyncReport: Sendable, Hashable {
  /// How a sync ended.
  public enum Result: String, Sendable, Hashable {
    /// Everything new was fetched and the catalogue replaced.
    case ok
    /// Stopped early (429, lost connection, Ctrl-C); what arrived is kept for the next sync.
    case partial
    /// Nothing could be fetched or written; the previous catalogue still answers.
    case failed
  }

  /// What stopped a sync (or its feed refresh) before the end.
  public enum Cause: String, Sendable, Hashable {
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
  public var feed: FeedReport?
  /// What each source did (today.rss, records, the catalogue list, the feed, the API), in the
  /// order asked; empty for a run logged before sources were counted.
  public var sources: [SourceCounts] = []
  /// The books this sync removed because Project Gutenberg no longer lists them.
  public var removedIDs: [Int] = []
  /// Bytes received from the sources that count them; nil when none did.
  public var bytes: Int64?

  /// How many books it removed.
  public var removed: Int { removedIDs.count }

  /// A report with these figures (the service makes them; tests and fronts may too).
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

  /// The report of a run the sync recorded.
  init(_ run: SyncRun) {
    self.init(
      started: run.started, seconds: run.seconds, added: run.added, updated: run.updated,
      requests: run.requests, result: Result(run.result), note: run.note, full: run.full)
    cause = run.cause.map(Cause.init)
    feed = run.feed.map(FeedReport.init)
    sources = run.sources ?? []
    removedIDs = run.removedIDs ?? []
    bytes = run.bytes
  }
}

extension SyncReport.Result {
  init(_ result: SyncRun.Result) {
    switch result {
    case .ok: self = .ok
    case .partial: self = .partial
    case .failed: self = .failed
    }
  }
}

extension SyncReport.Cause {
  init(_ cause: SyncRun.Cause) {
    switch cause {
    case .unavailable: self = .unavailable
    case .rateLimited: self = .rateLimited
    case .badData: self = .badData
    case .cancelled: self = .cancelled
    case .files: self = .files
    case .busy: self = .busy
    }
  }
}
