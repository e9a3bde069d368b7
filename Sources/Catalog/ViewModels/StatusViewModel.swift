import Foundation
import Gutendex

/// The status screen: server and whether it answers, source, favourites, cache, recent requests.
@MainActor
public final class StatusViewModel {
  /// Everything the status screen shows.
  public struct State: Sendable, Hashable {
    /// The configured Gutendex server.
    public var server: URL
    /// Whether the server may be used, or only the local catalogue.
    public var mode: CatalogService.Mode
    /// Whether the server answered the last check; nil before any check.
    public var serverAnswers: Bool?
    /// When the server was last checked, nil before the first check.
    public var checkedAt: Date?
    /// What is known of the network.
    public var network: NetworkState
    /// The local catalogue's name, nil when there is none.
    public var localCatalogue: String?
    /// How many favourites are stored, nil when the store could not be read.
    public var favoritesCount: Int?
    /// When the favourites were last refreshed from the server.
    public var favoritesRefreshed: Date?
    /// The page cache's size and age, nil without a cache.
    public var cache: CacheInfo?
    /// The most recent requests, newest first.
    public var requests: [RequestLog.Entry]
    /// Whether a check is running, done or failed.
    public var load: LoadState
    /// The local catalogue and its syncs (issue 20), nil without a synced catalogue.
    public var sync: SyncStatus? = nil
  }

  /// The catalogue the view model reports on.
  public let service: CatalogService
  private let state: ObservableState<State>
  /// The subscription to the store's changes (the figures follow the favourites and cache).
  private var changes: ObservationToken?

  /// A status view model over `service`; nothing is read until ``refresh(probe:)``.
  public init(service: CatalogService) {
    self.service = service
    state = ObservableState(
      State(
        server: service.server, mode: service.mode, serverAnswers: nil, checkedAt: nil,
        network: service.networkState, localCatalogue: service.localCatalogueName,
        favoritesCount: nil, favoritesRefreshed: nil, cache: nil, requests: [], load: .idle))
    changes = service.observeChanges { [weak self] _ in
      await self?.storeChanged()
    }
  }

  /// The store changed: once the figures have been read, they are read again (no probe).
  private func storeChanged() async {
    guard current.load != .idle, current.load != .loading else { return }
    await refresh(probe: false)
  }

  /// The state now; ``observe(_:)`` hears of every change.
  public var current: State { state.value }

  /// Calls `observer` now and after every change; keep the token to keep observing.
  public func observe(_ observer: @escaping @MainActor @Sendable (State) -> Void)
    -> ObservationToken
  {
    state.observe(observer)
  }

  /// Gathers the figures; with `probe`, also asks the server whether it answers.
  public func refresh(probe: Bool) async {
    var answers = current.serverAnswers
    var checkedAt = current.checkedAt
    if probe, service.mode == .automatic, service.networkState != .simulatedOffline {
      state.update { $0.load = .loading }
      // The check honours the user's timeout, but never waits more than 5 s for a status.
      answers = await service.probe(timeout: min(service.requestTimeout, .seconds(5)))
      checkedAt = service.now()
    }
    var failure: CatalogError?
    var count: Int?
    var refreshed: Date?
    var cache: CacheInfo?
    do {
      (count, refreshed) = try await service.favoritesSummary()
      cache = try await service.cacheInfoIfAny()
    } catch {
      failure = error
    }
    let requests = service.recentRequests(8)
    state.update {
      $0.serverAnswers = answers
      $0.checkedAt = checkedAt
      $0.network = service.networkState
      $0.favoritesCount = count
      $0.favoritesRefreshed = refreshed
      $0.cache = cache
      $0.requests = requests
      $0.sync = service.syncStatus()
      $0.load = failure.map { .failed($0) } ?? .loaded(.network)
    }
  }
}
