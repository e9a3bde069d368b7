import Foundation
import Gutendex
import GutendexEngine

/// A sync of the local catalogue run for a ``CatalogService``: the holdings gathered, the
/// ``CatalogueSync`` run, then the network's state, the favourites and the request log told.
struct LocalSync: Sendable {
  let service: CatalogService

  /// The ids the user holds: favourites and downloaded books.
  func heldIDs() async throws(CatalogError) -> [Int] {
    let favorites = service.favorites
    do {
      let favoriteIDs = try await favorites.favoriteIDsAsync()
      let libraryIDs = try await favorites.libraryIDsAsync()
      return Array(Set(favoriteIDs + libraryIDs)).sorted()
    } catch {
      throw CatalogError(error)
    }
  }

  /// How many requests `sync --full` will make (every page, plus the holdings' batches).
  func fullSyncEstimate() async throws(CatalogError) -> Int {
    let client = service.client
    guard let files = service.local?.files else { throw .notAvailableOffline("a sync") }
    let held = try await heldIDs()
    do {
      return try CatalogueSync(client: client, files: files).fullRequestEstimate(
        holdings: held.count)
    } catch {
      throw .localCatalogueUnavailable("\(error)")
    }
  }

  /// Brings the local catalogue up to date from the server (new books, then the favourites'
  /// and library's books in `ids=` batches); favourites the server no longer has are marked.
  /// The run is returned whatever its result (and logged); only "cannot sync at all" throws.
  /// `feed` replaces the policy's feed refresh (`sync --feed`, `--feed-url`), `sources` its
  /// sources (`sync --pg-url`).
  ///
  /// `events` hears what the sync has done so far, as it goes (pages, the feed's bytes and
  /// books), from any thread: what a progress line draws.
  func run(
    full: Bool, feed: FeedOptions?, sources: SyncSources?,
    events: (@Sendable (SyncProgressEvent) -> Void)?
  ) async throws(CatalogError) -> SyncReport {
    let (client, network, favorites, now) = (
      service.client, service.network, service.favorites, service.now
    )
    guard let local = service.local, let files = local.files else {
      throw .localCatalogueUnavailable("there is no local catalogue to sync")
    }
    guard service.mode != .localOnly else {
      throw .localCatalogueUnavailable(
        "--source local never asks the server: sync with --source auto or server")
    }
    guard network.current != .simulatedOffline else { throw .needsNetwork("a sync") }
    let held = try await heldIDs()
    var sync = CatalogueSync(
      client: client, files: files, feed: (feed ?? local.policy.feed)?.policy, now: now)
    if let events {
      // The engine's events, told as the model layer's (the front does not see the engine).
      sync.events = { event in
        switch event {
        case .page(let books): events(.page(books: books))
        case .feed(let bytes, let total, let books):
          events(.feed(bytes: bytes, total: total, books: books))
        case .record(let books, let of): events(.record(books: books, of: of))
        }
      }
    }
    let sources = sources ?? local.policy.sources
    sync.gutenberg = sources.gutenberg
    sync.walksServer = sources.walksServer
    let outcome = await sync.run(holdings: held, full: full)
    // Only the server's own answers say whether the server is up (not Project Gutenberg's).
    switch outcome.run.cause {
    case nil where sources.walksServer: network.markOnline()
    case .unavailable? where sources.walksServer, .rateLimited? where sources.walksServer:
      network.markOffline(outcome.run.note ?? "the server is unavailable", at: now())
    default: break
    }
    if outcome.run.result != .failed {
      local.reload()
      if !outcome.held.isEmpty || !outcome.missing.isEmpty {
        do {
          try await favorites.applyRefreshAsync(
            books: outcome.held, missingIDs: outcome.missing, at: now())
        } catch {
          service.record(url: "favourites", origin: .cache, error: error.description)
        }
      }
    }
    service.record(
      url: "sync: \(outcome.run.added) new, \(outcome.run.updated) updated",
      origin: .local, error: outcome.run.note,
      duration: .milliseconds(Int64(outcome.run.seconds * 1000)))
    return SyncReport(outcome.run)
  }
}
