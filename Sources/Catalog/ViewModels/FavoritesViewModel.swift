import Foundation
import Gutendex

/// The favourites list: ordering, removal, export, import and refresh from the server.
///
/// Favourites live in the local database only, so everything here works offline except
/// ``refresh()``, which fetches fresh snapshots and keeps (and marks) books the server dropped.
@MainActor
public final class FavoritesViewModel {
  /// Everything the favourites screen shows.
  public struct State: Sendable, Hashable {
    /// The favourites on the current page of the list.
    public var favorites: [Favorite]
    /// The order the favourites are listed in.
    public var order: FavoriteOrder
    /// All favourites, not just this page.
    public var count: Int
    /// The 1-based page of the list.
    public var page: Int
    /// When the favourites were last refreshed from the server.
    public var lastRefreshed: Date?
    /// Whether a load is running, done or failed.
    public var load: LoadState
    /// The outcome of the last action in words ("Removed 2 favourites."), if any.
    public var notice: String?

    /// Pages of ``FavoritesViewModel/pageSize`` favourites (at least 1).
    public var pageCount: Int {
      max(1, (count + FavoritesViewModel.pageSize - 1) / FavoritesViewModel.pageSize)
    }
  }

  /// Favourites shown per page, as many as a page of the catalogue (reading 10,000 snapshots to
  /// show 32 would waste the user's time).
  public nonisolated static let pageSize = BookQuery.pageSize

  /// The catalogue the view model reads and writes through.
  public let service: CatalogService
  private let state: ObservableState<State>
  /// The subscription to the store's changes (favourites changed anywhere are listed again).
  private var changes: ObservationToken?

  /// A favourites view model over `service`, listing in `order`.
  public init(service: CatalogService, order: FavoriteOrder = .newest) {
    self.service = service
    state = ObservableState(
      State(
        favorites: [], order: order, count: 0, page: 1, lastRefreshed: nil, load: .idle,
        notice: nil))
    changes = service.observeChanges { [weak self] change in
      guard change.contains(.favorites) else { return }
      await self?.favoritesChanged()
    }
  }

  /// The store announced a change to the favourites: the page on screen is read again (the
  /// notice of an earlier action goes with the list it described).
  private func favoritesChanged() async {
    // Before the list was first read there is nothing on screen to update.
    guard current.load != .idle else { return }
    await reload()
  }

  /// The state now; ``observe(_:)`` hears of every change.
  public var current: State { state.value }

  /// Calls `observer` now and after every change; keep the token to keep observing.
  public func observe(_ observer: @escaping @MainActor @Sendable (State) -> Void)
    -> ObservationToken
  {
    state.observe(observer)
  }

  /// Reads the current page of favourites from the store. The notice of an earlier action goes
  /// (it said what that action did; shown again it would look like news).
  public func reload() async {
    do {
      let loaded = try await service.favoritesPage(
        order: current.order, page: current.page, pageSize: Self.pageSize)
      state.update {
        $0.favorites = loaded.favorites
        $0.count = loaded.count
        $0.page = loaded.page
        $0.lastRefreshed = loaded.lastRefreshed
        $0.load = .loaded(.favorite(savedAt: loaded.lastRefreshed ?? Date.distantPast))
        $0.notice = nil
      }
    } catch {
      fail(error)
    }
  }

  /// Orders the list newest first, by title or by author (back to its first page).
  public func setOrder(_ order: FavoriteOrder) async {
    state.update {
      $0.order = order
      $0.page = 1
    }
    await reload()
  }

  /// Shows page `page` of the list, checked against the page count.
  public func goTo(page: Int) async {
    guard (1...current.pageCount).contains(page) else {
      return fail(.pageOutOfRange(page: page, pageCount: current.pageCount))
    }
    state.update { $0.page = page }
    await reload()
  }

  /// Removes the favourites in these rows (1-based); all rows are checked first.
  public func remove(rows: [Int]) async {
    let favorites = current.favorites
    guard !rows.isEmpty else { return fail(.invalidInput("which rows? e.g. rm 2 or rm 1-3")) }
    if let bad = rows.first(where: {
      !(1...max(favorites.count, 1)).contains($0) || favorites.isEmpty
    }) {
      return fail(.noSuchRow(row: bad, rowCount: favorites.count))
    }
    await remove(ids: rows.map { favorites[$0 - 1].id })
  }

  /// Removes favourites by book id.
  public func remove(ids: [Int]) async {
    do {
      let removed = try await service.removeFavorites(ids: ids).count { $0 }
      await reload()
      notice("Removed \(removed) \(removed == 1 ? "favourite" : "favourites").")
    } catch {
      fail(error)
    }
  }

  /// The export document (versioned JSON) for standard output.
  public func exportDocument() async throws(CatalogError) -> Data {
    try await service.transfer.exportFavorites()
  }

  /// Writes the export document to `file` atomically; nothing partial is left on failure.
  public func export(to file: URL) async throws(CatalogError) {
    do {
      // The store's count, not the screen's: the list may not have been read yet.
      let count = try await service.transfer.exportFavorites(to: file)
      notice("Exported \(count) \(count == 1 ? "favourite" : "favourites") to \(file.path).")
    } catch {
      fail(error)
      throw error
    }
  }

  /// Merges an export document, a Gutendex page, or an array of books; all or nothing.
  @discardableResult
  public func importDocument(_ data: Data, source: String) async throws(CatalogError)
    -> ImportSummary
  {
    do {
      let summary = try await service.transfer.importFavorites(data, source: source)
      await reload()
      notice(
        "Imported from \(source): \(summary.added) added, \(summary.updated) updated, "
          + "\(summary.unchanged) unchanged.")
      return summary
    } catch {
      fail(error)
      throw error
    }
  }

  /// Fetches fresh snapshots of every favourite from the server.
  public func refresh() async {
    state.update { $0.load = .loading }
    do {
      let result = try await service.refreshFavorites()
      await reload()
      notice(
        "Refreshed \(result.updated) \(result.updated == 1 ? "favourite" : "favourites")"
          + (result.missing > 0 ? "; \(result.missing) no longer on the server (kept)." : "."))
    } catch {
      await reload()
      fail(error)
    }
  }

  /// Clears a failed state back to the list on screen (after the error has been shown).
  public func dismissError() {
    guard current.load.error != nil else { return }
    state.update { $0.load = .loaded(.favorite(savedAt: $0.lastRefreshed ?? .distantPast)) }
  }

  private func notice(_ text: String) {
    state.update { $0.notice = text }
  }

  private func fail(_ error: CatalogError) {
    state.update {
      $0.load =
        error == .cancelled
        ? .loaded(.favorite(savedAt: $0.lastRefreshed ?? .distantPast)) : .failed(error)
      $0.notice = nil
    }
  }
}
