import GutendexEngine

/// How a sync's refresh from Project Gutenberg's feed went.
public struct FeedReport: Sendable, Hashable {
  /// What happened to the feed.
  public enum Result: String, Sendable, Hashable {
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
  /// What stopped it when it failed.
  public var cause: SyncReport.Cause?

  /// The report of the outcome the sync recorded.
  init(_ outcome: FeedOutcome) {
    result =
      switch outcome.result {
      case .refreshed: .refreshed
      case .unchanged: .unchanged
      case .failed: .failed
      }
    books = outcome.books
    skipped = outcome.skipped
    note = outcome.note
    requests = outcome.requests
    cause = outcome.cause.map(SyncReport.Cause.init)
  }
}
