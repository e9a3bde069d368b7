import Foundation
import Gutendex
import GutendexEngine

extension CatalogService {
  /// The books syncs added to the local catalogue since `since` (in `languages`, when given),
  /// those by authors of your favourites first, then those in their subjects and on their
  /// bookshelves, then the rest: the first `limit` of them (all when nil), with the counts of
  /// all. Reads the arrivals the syncs recorded, the local catalogue and the favourites; never
  /// asks the server.
  public func newBooks(
    since: NewBooks.Since, languages: [String] = [], limit: Int? = nil
  ) async throws(CatalogError) -> NewBooks {
    try await NewBooksQuery(service: self).run(since: since, languages: languages, limit: limit)
  }

  /// Records that the user has now seen every book `found` counts (``NewBooks/Since/unseen``):
  /// the next `new` lists only books added after them. Called when the list is shown.
  public func markNewBooksSeen(_ found: NewBooks) {
    guard found.unseen, found.total > 0, let files = local?.files, let newest = found.newestAdded
    else { return }
    files.markNewSeen(upTo: newest)
  }

  /// The books `run` added, for the line that says what arrived; nil when it added none or
  /// they cannot be read (the sync's own line has said what it did).
  public func arrivals(of run: SyncReport) async -> NewBooks? {
    // Only this run's: a run that added nothing must not count the books of one just before.
    guard run.result != .failed, run.added > 0 || run.feed?.result == .refreshed else {
      return nil
    }
    return try? await newBooks(since: .date(run.started), limit: 0)
  }
}
