import Foundation
import Gutendex
import Synchronization

/// The offline-first source of truth behind every view model, and the one door to the data.
///
/// Pages come from the server when it answers; every page that arrives is upserted into the
/// local page cache. When the server cannot be used (down, unreachable, timed out, simulated
/// offline) the cached copy stands in, then the local catalogue, and the answer says so.
/// Favourites live only in the local store, so they work with no network at all.
///
/// Everything the front may do is an intent here (a page, a book, toggle a favourite, export,
/// refresh, cache info, ...); the stores and the client behind them are internal. Store work runs
/// off the caller's actor (``StoreWork``), so the main actor never waits on SQLite, and a
/// cancelled caller stops a wait for another process's lock.
public final class CatalogService: Sendable {
  /// Whether the server is asked at all.
  public enum Mode: String, Sendable, Hashable {
    /// The server first, then the cache, then the local catalogue.
    case automatic
    /// Only the local catalogue (chosen explicitly, e.g. `--source embedded`).
    case localOnly
  }

  /// The Gutendex client for the configured server.
  let client: GutendexClient
  /// The favourites database.
  let favorites: FavoritesStore
  /// The offline page cache, nil when it could not be opened.
  let cache: PageCache?
  /// Downloaded books and reading positions, in the favourites database.
  let library: Library
  /// The catalogue on this machine (the embedded snapshot), the last fallback.
  let local: LocalCatalogue?
  /// Whether the server may be asked at all.
  public let mode: Mode
  /// The recent requests and where their answers came from.
  let log: RequestLog
  /// What is known of the network: online, offline since when, or simulated offline.
  let network: NetworkMonitor
  /// Why the page cache could not be opened, nil when it is open or was not asked for.
  public let cacheProblem: StoreError?
  let now: @Sendable () -> Date
  /// The changes of the stores, for ``observeChanges(_:)``.
  let feed: StoreFeed
  /// True while a background probe of a server that failed recently is under way.
  let retryingServer = Atomic<Bool>(false)
  /// What the front works out of a download's file to keep with it in the library (its body
  /// and chapters, for `library search`), when the download is recorded; nil keeps none.
  let libraryContents: (@Sendable (LibraryEntry) -> LibraryContents?)?
  /// How often another process's commits are looked for while someone observes.
  public static let changePollInterval: Duration = .milliseconds(100)

  /// A service over these stores and clients; it owns none of their files' lifetimes.
  init(
    client: GutendexClient, favorites: FavoritesStore, cache: PageCache?,
    local: LocalCatalogue? = nil, mode: Mode = .automatic, log: RequestLog = RequestLog(),
    cacheProblem: StoreError? = nil, now: @escaping @Sendable () -> Date = { Date() },
    clock: any Clock<Duration> = ContinuousClock(),
    libraryContents: (@Sendable (LibraryEntry) -> LibraryContents?)? = nil
  ) {
    self.libraryContents = libraryContents
    var client = client
    let previous = client.observer
    client.observer = { event in
      previous?(event)
      log.record(event, at: now())
    }
    self.client = client
    self.favorites = favorites
    self.cache = cache
    self.library = Library(favorites: favorites)
    self.local = local
    self.mode = mode
    self.log = log
    self.network = NetworkMonitor(mode == .localOnly ? .localOnly : .unknown)
    self.cacheProblem = cacheProblem
    self.now = now
    feed = StoreFeed { feed in
      CatalogService.startWatching(
        favorites: favorites, cache: cache, clock: clock, interval: Self.changePollInterval,
        feed: feed)
    }
  }

  /// Opens the stores at `location` off the caller's actor (creating and migrating them may
  /// wait for another process's lock): the favourites database must open, or this throws; the
  /// page cache is disposable, so when it cannot open the service browses without it and
  /// ``cacheProblem`` says why. `readsOnly` opens the favourites to read only;
  /// `cacheReadsOnly` the page cache, for a command that asks no server (so stores no page);
  /// `cacheWritesOnDemand` opens it to read until a page is stored (a listing, which writes
  /// only what a server answered); without `opensCache` (a command that never looks at it) it
  /// is not opened at all.
  public static func open(
    client: GutendexClient, location: StoreLocation, local: LocalCatalogue? = nil,
    mode: Mode = .automatic, readsOnly: Bool = false, cacheReadsOnly: Bool = false,
    cacheWritesOnDemand: Bool = false, opensCache: Bool = true,
    libraryContents: (@Sendable (LibraryEntry) -> LibraryContents?)? = nil
  ) async throws(CatalogError) -> CatalogService {
    // One lock wait for the service's files: Ctrl-C stops every wait of this service.
    let busyWait = BusyWait()
    let (favorites, cache) = try await StoreWork.run(on: busyWait) {
      () throws(StoreError) -> (FavoritesStore, Result<PageCache, StoreError>?) in
      let favorites = try FavoritesStore(
        location: location, busyWait: busyWait, readsOnly: readsOnly)
      guard opensCache else { return (favorites, nil) }
      return (
        favorites,
        Result { () throws(StoreError) in
          try PageCache(
            location: location, busyWait: busyWait, readsOnly: cacheReadsOnly,
            writesOnDemand: cacheWritesOnDemand)
        }
      )
    }
    var problem: StoreError?
    if case .failure(let error)? = cache { problem = error }
    return CatalogService(
      client: client, favorites: favorites, cache: try? cache?.get(), local: local, mode: mode,
      cacheProblem: problem, libraryContents: libraryContents)
  }

  /// True when the favourites file (or the data directory) cannot be written: everything that
  /// only reads works, and every change fails with a clear error.
  public var isReadOnly: Bool { favorites.isReadOnly }

  /// The server this service talks to.
  public var server: URL { client.server }

  /// How long one request to the server may take.
  public var requestTimeout: Duration { client.timeout }

  /// What is known of the network now.
  public var networkState: NetworkState { network.current }

  /// The local catalogue's name ("embedded catalogue of 2025-08"), nil when there is none.
  public var localCatalogueName: String? { local?.name }

  /// Why the embedded catalogue answered in place of a damaged local one, once (see
  /// ``LocalCatalogue/takeDamageNote()``).
  public func takeLocalCatalogueDamageNote() -> String? { local?.takeDamageNote() }

  /// Every language code some book of the local catalogue has (synced books' too), sorted;
  /// empty when there is none.
  public var localLanguageCodes: [String] { local?.languageCodes ?? [] }

  /// Whether the local catalogue lacks summaries, so a book from it may need the network.
  public var localCatalogueLacksSummaries: Bool { local.map { !$0.hasSummaries } ?? false }

  /// Switches the "simulate offline" mode on or off; nothing is sent to the server while on.
  public func simulateOffline(_ on: Bool) {
    network.simulateOffline(on)
    // "offline off" is also how to wait for a server that failed recently.
    if !on { outage?.clear() }
  }

  /// The most recent requests, newest first.
  public func recentRequests(_ limit: Int = 10) -> [RequestLog.Entry] {
    log.recent(limit)
  }

  /// Adds a request sent outside the service's own client (progress sync's `PUT`, say) to the
  /// recent requests, as the client's own are: what `status` lists.
  public func recordRequest(_ event: RequestEvent) {
    log.record(event, at: now())
  }

  /// One page for `query`: live when possible, else cached, else from the local catalogue (see
  /// ``SourcePolicy``).
  public func page(_ query: BookQuery) async throws(CatalogError) -> LoadedPage {
    try await SourcePolicy(service: self).page(query)
  }

  /// One book: live when possible, else the saved favourite, else the local catalogue (see
  /// ``SourcePolicy``).
  public func book(id: Int) async throws(CatalogError) -> LoadedBook {
    try await SourcePolicy(service: self).book(id: id)
  }

  /// Many books, in order, each as ``book(id:)`` answers it, asked for in bulk (see
  /// ``SourcePolicy/books(ids:)``): a command naming 10,000 ids.
  public func books(ids: [Int]) async -> [Result<LoadedBook, CatalogError>] {
    await SourcePolicy(service: self).books(ids: ids)
  }

  /// Checks whether the server answers, with one small request and no retries (see
  /// ``SourcePolicy/probe(timeout:)``).
  public func probe(timeout: Duration = .seconds(5)) async -> Bool {
    await SourcePolicy(service: self).probe(timeout: timeout)
  }

  /// Fetches fresh snapshots of every favourite from the server (see ``FavoritesRefresh``).
  public func refreshFavorites() async throws(CatalogError) -> (updated: Int, missing: Int) {
    try await FavoritesRefresh(service: self).run()
  }

  func record(
    url: String, origin: RequestLog.Entry.Origin, error: String?, duration: Duration = .zero
  ) {
    log.record(
      RequestLog.Entry(
        date: now(), url: url, status: nil, error: error, duration: duration, origin: origin))
  }
}
