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
  /// How often another process's commits are looked for while someone observes.
  public static let changePollInterval: Duration = .milliseconds(100)

  /// A service over these stores and clients; it owns none of their files' lifetimes.
  init(
    client: GutendexClient, favorites: FavoritesStore, cache: PageCache?,
    local: LocalCatalogue? = nil, mode: Mode = .automatic, log: RequestLog = RequestLog(),
    cacheProblem: StoreError? = nil, now: @escaping @Sendable () -> Date = { Date() },
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    var client = client
    let previous = client.observer
    client.observer = { event in
      previous?(event)
      log.record(
        RequestLog.Entry(
          date: now(), url: event.url.redacted, status: event.status,
          error: event.error?.description, duration: event.duration, origin: .network))
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
  /// `cacheReadsOnly` the page cache, for a command that asks no server (so stores no page).
  public static func open(
    client: GutendexClient, location: StoreLocation, local: LocalCatalogue? = nil,
    mode: Mode = .automatic, readsOnly: Bool = false, cacheReadsOnly: Bool = false
  ) async throws(CatalogError) -> CatalogService {
    // One lock wait for the service's files: Ctrl-C stops every wait of this service.
    let busyWait = BusyWait()
    let (favorites, cache) = try await StoreWork.run(on: busyWait) {
      () throws(StoreError) -> (FavoritesStore, Result<PageCache, StoreError>) in
      let favorites = try FavoritesStore(
        location: location, busyWait: busyWait, readsOnly: readsOnly)
      return (
        favorites,
        Result { () throws(StoreError) in
          try PageCache(location: location, busyWait: busyWait, readsOnly: cacheReadsOnly)
        }
      )
    }
    var problem: StoreError?
    if case .failure(let error) = cache { problem = error }
    return CatalogService(
      client: client, favorites: favorites, cache: try? cache.get(), local: local, mode: mode,
      cacheProblem: problem)
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
    if !on { forgetOutage() }
  }

  /// The most recent requests, newest first.
  public func recentRequests(_ limit: Int = 10) -> [RequestLog.Entry] {
    log.recent(limit)
  }

  /// One page for `query`: live when possible, else cached, else from the local catalogue.
  public func page(_ query: BookQuery) async throws(CatalogError) -> LoadedPage {
    if mode == .localOnly {
      return try await localPage(query, reason: nil)
    }
    // Issue 20: a fresh sync answers from the local catalogue with no request.
    if answersLocallyFirst { return try await localPage(query, reason: nil) }
    if network.current == .simulatedOffline {
      return try await fallbackPage(query, reason: "simulated offline", error: nil)
    }
    // A server that just failed costs one timeout, not one per page (issue 27).
    if let note = skippedServerNote() {
      return try await fallbackPage(query, reason: note, error: nil)
    }
    let asked = ContinuousClock.now
    do {
      let page = try await client.page(query)
      network.markOnline()
      forgetOutage()
      upsertSeen(page.results)
      // A cache that cannot be written must not stop browsing; the request log shows it.
      if let cache {
        let fetchedAt = now()
        do {
          try await StoreWork.run(on: cache.busyWait) { () throws(StoreError) in
            try cache.store(page, for: query, fetchedAt: fetchedAt)
          }
        } catch {
          // Cancelled after the page arrived: the page is still good to show.
          if error != .cancelled { record(url: "cache", origin: .cache, error: error.description) }
        }
      }
      return LoadedPage(query: query, page: page, source: .network)
    } catch {
      if case .cancelled = error { throw .cancelled }
      guard error.isUnavailable else { throw .server(error) }
      network.markOffline(error.description, at: now())
      rememberOutage(error.description, cost: ContinuousClock.now - asked)
      return try await fallbackPage(query, reason: error.description, error: error)
    }
  }

  /// One book: live when possible, else the saved favourite, else the local catalogue.
  public func book(id: Int) async throws(CatalogError) -> (book: Book, source: PageSource) {
    if answersLocallyFirst, let answer = await localFirstBook(id: id) { return answer }
    if mode != .localOnly, network.current != .simulatedOffline, skippedServerNote() == nil {
      let asked = ContinuousClock.now
      do {
        let book = try await client.book(id: id)
        network.markOnline()
        forgetOutage()
        upsertSeen([book])
        return (book, .network)
      } catch {
        if case .cancelled = error { throw .cancelled }
        guard error.isUnavailable else { throw .server(error) }
        network.markOffline(error.description, at: now())
        rememberOutage(error.description, cost: ContinuousClock.now - asked)
        return try await fallbackBook(id: id, error: error)
      }
    }
    return try await fallbackBook(id: id, error: nil)
  }

  /// Checks whether the server answers, with one small request and no retries.
  ///
  /// Simulated offline and local-only mode send nothing and answer false: the user switched
  /// the server off, so not even a probe may reach it.
  public func probe(timeout: Duration = .seconds(5)) async -> Bool {
    guard mode != .localOnly, network.current != .simulatedOffline else { return false }
    var probe = client
    probe.retry = .none
    probe.timeout = timeout
    do {
      _ = try await probe.page(BookQuery(ids: [1]))
      network.markOnline()
      return true
    } catch {
      if error.isUnavailable { network.markOffline(error.description, at: now()) }
      return false
    }
  }

  /// Fetches fresh snapshots of every favourite from the server, 32 ids a request.
  ///
  /// Books the server no longer returns are kept and marked missing. Nothing is written unless
  /// every batch arrives, so a failure part-way leaves the favourites as they were.
  public func refreshFavorites() async throws(CatalogError) -> (updated: Int, missing: Int) {
    let favorites = self.favorites
    let ids = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.favorites(order: .newest).map(\.id).sorted()
    }
    guard mode != .localOnly, network.current != .simulatedOffline else {
      throw .notAvailableOffline("a refresh from the server")
    }
    var books: [Book] = []
    var missing: [Int] = []
    var start = 0
    while start < ids.count {
      let batch = Array(ids[start..<min(start + BookQuery.pageSize, ids.count)])
      start += batch.count
      do {
        let page = try await client.page(BookQuery(ids: batch))
        let returned = Set(page.results.map(\.id))
        books += page.results.filter { batch.contains($0.id) }
        missing += batch.filter { !returned.contains($0) }
      } catch {
        if case .cancelled = error { throw .cancelled }
        if error.isUnavailable { network.markOffline(error.description, at: now()) }
        throw .server(error)
      }
    }
    // With no favourites nothing was sent, so nothing is known about the server.
    if !ids.isEmpty { network.markOnline() }
    upsertSeen(books)
    let refreshedAt = now()
    try await StoreWork.run(on: favorites.busyWait) { [books, missing] () throws(StoreError) in
      try favorites.applyRefresh(books: books, missingIDs: missing, at: refreshedAt)
    }
    await settleChanges()
    return (books.count, missing.count)
  }

  func fallbackPage(_ query: BookQuery, reason: String, error: GutendexError?)
    async throws(CatalogError) -> LoadedPage
  {
    var cached: CachedPage?
    if let cache {
      let date = now()
      do {
        cached = try await StoreWork.run(on: cache.busyWait) { () throws(StoreError) in
          try cache.page(for: query, now: date)
        }
      } catch {
        if error == .cancelled { throw .cancelled }
        record(url: "cache", origin: .cache, error: error.description)
      }
    }
    if let cached {
      record(url: "cache: \(query.encoded)", origin: .cache, error: nil)
      return LoadedPage(
        query: query, page: cached.page, source: .cache(fetchedAt: cached.fetchedAt),
        fallbackReason: reason)
    }
    if local != nil {
      return try await localPage(query, reason: reason)
    }
    if let error { throw .server(error) }
    throw .notAvailableOffline("this page")
  }

  func localPage(_ query: BookQuery, reason: String?) async throws(CatalogError) -> LoadedPage {
    guard let local else { throw .notAvailableOffline("this page") }
    let store = try local.store()
    let start = ContinuousClock.now
    do {
      let page = try store.page(query)
      record(
        url: "local: \(query.encoded)", origin: .local, error: nil,
        duration: ContinuousClock.now - start)
      return LoadedPage(
        query: query, page: page, source: .local(name: local.name), fallbackReason: reason)
    } catch {
      let failure = Self.localFailure(error, in: local)
      record(url: "local: \(query.encoded)", origin: .local, error: failure.description)
      // Standing in for the server, a page the local catalogue lacks is simply not available
      // offline; the catalogue's own page count would describe a server nobody asked.
      if reason != nil, case .pageOutOfRange = error { throw .notAvailableOffline("this page") }
      throw failure
    }
  }

  func fallbackBook(id: Int, error: GutendexError?) async throws(CatalogError) -> (
    book: Book, source: PageSource
  ) {
    let favorites = self.favorites
    let saved = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.favorite(id: id)
    }
    if let favorite = saved {
      return (favorite.book, .favorite(savedAt: favorite.refreshedAt ?? favorite.addedAt))
    }
    if let local {
      let store = try local.store()
      do {
        return (try store.book(id: id), .local(name: local.name))
      } catch {
        // Standing in for the server, a book the local catalogue lacks is not available
        // offline; in local-only mode the catalogue is the source, so its miss stands.
        if case .notFound = error {
          throw mode == .localOnly ? .notInLocalCatalogue(id) : .notAvailableOffline("book \(id)")
        }
        throw Self.localFailure(error, in: local)
      }
    }
    if let error { throw .server(error) }
    throw .notAvailableOffline("book \(id)")
  }

  /// What a store's failure means to the front.
  static func localFailure(_ error: CatalogueStoreError, in local: LocalCatalogue) -> CatalogError {
    switch error {
    case .notFound(let id): .notInLocalCatalogue(id)
    case .pageOutOfRange(let page, let pageCount): .pageOutOfRange(page: page, pageCount: pageCount)
    case .damaged(let reason): .localCatalogueUnavailable("the \(local.name) is damaged: \(reason)")
    }
  }

  func record(
    url: String, origin: RequestLog.Entry.Origin, error: String?, duration: Duration = .zero
  ) {
    log.record(
      RequestLog.Entry(
        date: now(), url: url, status: nil, error: error, duration: duration, origin: origin))
  }
}
