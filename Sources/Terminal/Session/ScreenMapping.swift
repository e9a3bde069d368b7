import Catalog
import Foundation
import Gutendex

/// Turns view-model state into the plain screen structs the renderers draw.
enum ScreenMapping {
  static func browse(_ state: BrowserViewModel.State, now: Date)
    -> BrowseScreen
  {
    BrowseScreen(
      query: BrowseScreen.summary(of: state.query), page: state.page,
      pageCount: state.pageCount ?? 1, totalCount: state.totalCount ?? 0,
      provenance: state.load.provenance ?? .network, now: now,
      rows: state.items.enumerated().map { index, item in
        BookRow(number: index + 1, book: item.book, isFavorite: item.isFavorite)
      })
  }

  static func rows(_ page: BookPage, offset: Int) -> [BookRow] {
    page.results.enumerated().map { index, book in
      BookRow(number: offset + index + 1, book: book)
    }
  }

  static func details(_ state: BookDetailViewModel.State, now: Date) -> DetailScreen? {
    guard let book = state.book else { return nil }
    return DetailScreen(
      book: book, isFavorite: state.isFavorite, summaryNeedsNetwork: state.summaryNeedsNetwork,
      provenance: state.load.provenance ?? .network, now: now)
  }

  static func favorites(_ state: FavoritesViewModel.State, timeZone: TimeZone = .current)
    -> FavoritesScreen
  {
    FavoritesScreen(
      order: state.order,
      rows: favoriteRows(state.favorites), timeZone: timeZone, notice: state.notice,
      totalCount: state.count, page: state.page,
      pageCount: state.pageCount)
  }

  static func favoriteRows(_ favorites: [Favorite]) -> [FavoritesScreen.Row] {
    favorites.enumerated().map { index, favorite in
      FavoritesScreen.Row(
        book: BookRow(number: index + 1, book: favorite.book, isFavorite: true),
        addedAt: favorite.addedAt, isMissingOnServer: favorite.missingOnServer)
    }
  }

  static func status(
    _ state: StatusViewModel.State, page: Provenance?, now: Date, timeZone: TimeZone = .current
  ) -> StatusScreen {
    let reachability: StatusScreen.Reachability
    switch (state.serverAnswers, state.checkedAt) {
    case (true?, let checked?):
      reachability = .reachable(checkedAgo: max(0, now.timeIntervalSince(checked)))
    case (false?, let checked?):
      var reason: String?
      if case .offline(let text, _) = state.network { reason = text }
      reachability = .unreachable(
        checkedAgo: max(0, now.timeIntervalSince(checked)), reason: reason)
    default:
      reachability = .unknown
    }
    let requests = state.requests.map { entry in
      StatusScreen.Request(
        method: entry.method, startedAt: entry.date, target: entry.url,
        // A cache or local lookup has no HTTP status: it must not pass for a server's 200.
        outcome: entry.error.map { .failure($0) } ?? entry.status.map { .status($0) } ?? .served,
        durationMilliseconds: Int(entry.duration / .milliseconds(1)),
        origin: entry.origin)
    }
    // Before any page is shown, say where the next one would come from.
    let local = PageSource.local(name: state.localCatalogue ?? "local catalogue")
    var current = page ?? .network
    if state.mode == .localOnly || (page == nil && state.sync?.localFirst == true) {
      current = Provenance(local)
    } else if state.network.isOffline, current.source == .network {
      current = Provenance(local, fallbackReason: Self.offlineReason(state.network))
    }
    return StatusScreen(
      serverURL: state.server.redacted, reachability: reachability, provenance: current,
      now: now,
      favoriteCount: state.favoritesCount ?? 0,
      favoritesRefreshedAgo: state.favoritesRefreshed.map { max(0, now.timeIntervalSince($0)) },
      cachedPageCount: state.cache?.entries ?? 0, cacheBytes: state.cache?.bytes ?? 0,
      oldestCachedAge: state.cache?.oldest.map { max(0, now.timeIntervalSince($0)) },
      requests: requests, timeZone: timeZone, sync: state.sync)
  }
}

extension ScreenMapping {
  /// Why the network is considered down, for a fallback's provenance.
  static func offlineReason(_ network: NetworkState) -> String {
    switch network {
    case .offline(let reason, _): reason
    case .simulatedOffline: "simulated offline"
    default: "offline"
    }
  }
}
