import Foundation
import Gutendex
import GutendexEngine

extension CatalogService {
  /// Whether lists, searches and details come from the local catalogue with no request now:
  /// automatic mode, and a sync went well within the freshness window.
  public var answersLocallyFirst: Bool {
    mode == .automatic && local?.isFresh(at: now()) == true
  }

  /// The local catalogue's sync state as recorded on disk now; nil when it never synced.
  public func syncState() throws(CatalogError) -> SyncState? {
    guard let files = local?.files else { return nil }
    do {
      return try files.readState()
    } catch {
      throw .localCatalogueUnavailable(error.description)
    }
  }

  /// When the browser's next background sync is due (now when it never synced), nil when it
  /// never syncs by itself (offline, local only, or no synced catalogue).
  public func nextSyncDue(state: SyncState?) -> Date? {
    guard let local, local.files != nil, local.policy.backgroundSync, mode == .automatic,
      network.current != .simulatedOffline
    else { return nil }
    guard let last = state?.lastRun else { return now() }
    let ended = last.started.addingTimeInterval(last.seconds)
    // A sync that failed or stopped early is retried soon, backing off while it keeps failing:
    // a minute, then four times longer each time, never later than the usual interval.
    let failures = state?.runs.reversed().prefix { $0.result != .ok }.count ?? 0
    guard failures > 0 else { return ended.addingTimeInterval(local.policy.interval) }
    let backoff = min(local.policy.interval, 60 * pow(4, Double(min(failures, 12) - 1)))
    return ended.addingTimeInterval(backoff)
  }

  /// Whether a background sync is due now.
  public func backgroundSyncIsDue() -> Bool {
    guard let due = nextSyncDue(state: try? syncState()) else { return false }
    return due <= now()
  }

  /// How many requests `sync --full` will make (every page, plus the holdings' batches).
  public func fullSyncEstimate() async throws(CatalogError) -> Int {
    try await LocalSync(service: self).fullSyncEstimate()
  }

  /// Brings the local catalogue up to date (see ``LocalSync``): from Project Gutenberg's files
  /// and the server (new books, then the favourites' and library's books in `ids=` batches);
  /// favourites the server no longer has are marked. The run is returned whatever its result
  /// (and logged); only "cannot sync at all" throws. `feed` replaces the policy's feed refresh
  /// (`sync --feed`, `--feed-url`), `sources` its sources (`sync --pg-url`); `events` hears
  /// what the sync has done so far, from any thread (what a progress line draws).
  public func syncCatalogue(
    full: Bool = false, feed: FeedOptions? = nil, sources: SyncSources? = nil,
    events: (@Sendable (SyncProgressEvent) -> Void)? = nil
  ) async throws(CatalogError) -> SyncReport {
    try await LocalSync(service: self).run(
      full: full, feed: feed, sources: sources, events: events)
  }

  /// The last syncs recorded (at most 20), oldest first; empty before the first.
  public func syncHistory() throws(CatalogError) -> [SyncReport] {
    (try syncState()?.runs ?? []).map(SyncReport.init)
  }

  /// How many books the synced catalogue holds, nil before the first sync (or when its state
  /// cannot be read).
  public func syncCounts() -> SyncCounts? {
    guard let state = try? syncState() else { return nil }
    return SyncCounts(
      books: state.bookCount, baseBooks: state.booksFromBase, addedBooks: state.booksAddedSince,
      syncedBooks: state.syncedBooks)
  }

  /// "Did you mean" for `query`, which found `found` books: the spellings the local catalogue
  /// knows (its synced books' too), the best first; empty when it found more than
  /// ``SearchSuggestion/threshold`` books, has no search or topic, or there is no local
  /// catalogue. Off the caller's actor: the first call reads the catalogue's words.
  public func suggestions(for query: BookQuery, found: Int) async -> [SearchSuggestion] {
    guard found <= SearchSuggestion.threshold, query.search != nil || query.topic != nil,
      let local
    else { return [] }
    return await Task.detached(priority: .userInitiated) {
      (try? local.store().suggestions(for: query, found: found)) ?? []
    }.value
  }
}
