import Foundation
import Gutendex

/// The status screen: server and whether it answers, source, favourites, cache, recent requests.
@MainActor
public final class StatusViewModel {
  /// Everything the status screen shows.
  public struct State: Sendable, Hashable {
    public var server: URL
    public var mode: CatalogService.Mode
    /// Whether the server answered the last check; nil before any check.
    public var serverAnswers: Bool?
    public var checkedAt: Date?
    public var network: NetworkState
    public var localCatalogue: String?
    public var favoritesCount: Int?
    public var favoritesRefreshed: Date?
    public var cache: CacheInfo?
    public var requests: [RequestLog.Entry]
    public var load: LoadState
  }

  public let service: CatalogService
  private let state: ObservableState<State>

  public init(service: CatalogService) {
    self.service = service
    state = ObservableState(
      State(
        server: service.server, mode: service.mode, serverAnswers: nil, checkedAt: nil,
        network: service.network.current, localCatalogue: service.local?.name,
        favoritesCount: nil, favoritesRefreshed: nil, cache: nil, requests: [], load: .idle))
  }

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
    if probe, service.mode == .automatic, service.network.current != .simulatedOffline {
      state.update { $0.load = .loading }
      // The check honours the user's timeout, but never waits more than 5 s for a status.
      answers = await service.probe(timeout: min(service.client.timeout, .seconds(5)))
      checkedAt = service.now()
    }
    var failure: CatalogError?
    var count: Int?
    var refreshed: Date?
    var cache: CacheInfo?
    do {
      count = try service.favorites.count()
      refreshed = try service.favorites.lastRefreshed()
      cache = try service.cache?.info()
    } catch {
      failure = .store(error)
    }
    let requests = service.log.recent(8)
    state.update {
      $0.serverAnswers = answers
      $0.checkedAt = checkedAt
      $0.network = service.network.current
      $0.favoritesCount = count
      $0.favoritesRefreshed = refreshed
      $0.cache = cache
      $0.requests = requests
      $0.load = failure.map { .failed($0) } ?? .loaded(.network)
    }
  }
}
