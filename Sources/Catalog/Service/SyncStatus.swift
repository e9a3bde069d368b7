import Foundation
import GutendexEngine

/// What `status` says of the local catalogue: what it holds, its last sync, whether it answers
/// first, and when the browser will sync next.
public struct SyncStatus: Sendable, Hashable {
  /// The embedded snapshot's month (`2025-08`).
  public var snapshotDate: String
  /// Books as the snapshot has them.
  public var snapshotBooks: Int
  /// Books whose record came from the server.
  public var syncedBooks: Int
  /// Books in the local catalogue, in all.
  public var books: Int = EmbeddedCatalogue.bookCount
  /// Books in the base (the snapshot, or the last feed refresh).
  public var baseBooks: Int = EmbeddedCatalogue.bookCount
  /// Books added since the base was built.
  public var addedBooks: Int = 0
  /// The most recent sync, nil before the first.
  public var lastRun: SyncReport?
  /// When the last sync that went well ended (the catalogue's as-of date).
  public var lastSuccess: Date?
  /// Whether lists, searches and details come from it with no request now.
  public var localFirst: Bool
  /// When answers stop coming locally first (nil when they do not now).
  public var freshUntil: Date?
  /// When the browser syncs next by itself; nil when it never does (offline, local only).
  public var nextSyncDue: Date?
  /// Why the sync state could not be read, nil when it could.
  public var problem: String?

  /// A status with these figures.
  public init(
    snapshotDate: String, snapshotBooks: Int, syncedBooks: Int, lastRun: SyncReport?,
    lastSuccess: Date?, localFirst: Bool, freshUntil: Date?, nextSyncDue: Date?,
    problem: String? = nil
  ) {
    self.snapshotDate = snapshotDate
    self.snapshotBooks = snapshotBooks
    self.syncedBooks = syncedBooks
    self.lastRun = lastRun
    self.lastSuccess = lastSuccess
    self.localFirst = localFirst
    self.freshUntil = freshUntil
    self.nextSyncDue = nextSyncDue
    self.problem = problem
  }
}

extension CatalogService {
  /// The local catalogue's status now, nil when this service has no synced catalogue files.
  public func syncStatus() -> SyncStatus? {
    SyncStatus(service: self)
  }
}

extension SyncStatus {
  /// `service`'s local catalogue as recorded on disk now; nil without synced catalogue files.
  init?(service: CatalogService) {
    guard let local = service.local, local.files != nil else { return nil }
    var problem: String?
    var state: SyncState?
    do {
      state = try service.syncState()
    } catch {
      problem = error.description
    }
    let localFirst = service.answersLocallyFirst
    var freshUntil: Date?
    if localFirst, let last = local.openedState?.lastSuccess, let maxAge = local.policy.maxAge {
      freshUntil = last.addingTimeInterval(maxAge)
    }
    self.init(
      snapshotDate: state?.snapshotDate ?? EmbeddedCatalogue.snapshotDate,
      snapshotBooks: state?.snapshotBooks ?? EmbeddedCatalogue.bookCount,
      syncedBooks: state?.syncedBooks ?? 0,
      lastRun: state?.lastRun.map(SyncReport.init), lastSuccess: state?.lastSuccess,
      localFirst: localFirst,
      freshUntil: freshUntil, nextSyncDue: service.nextSyncDue(state: state), problem: problem)
    if let state {
      books = state.bookCount
      baseBooks = state.booksFromBase
      addedBooks = state.booksAddedSince
    }
  }
}
