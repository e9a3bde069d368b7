import Foundation
import Gutendex
import Synchronization

/// The catalogue browser: a query, the page of books it is on, and the actions to move around.
///
/// State changes only through the actions below and is published through ``observe(_:)``.
/// After a page is shown the next one is prefetched in the background, so "next" is instant;
/// pages seen in this session are kept so going back is instant too. A failed action leaves
/// the page as it was and puts the error in ``State/load``.
@MainActor
public final class BrowserViewModel {
  /// One row: a book and whether it is a favourite.
  public struct Item: Sendable, Hashable, Identifiable {
    /// The book on this row.
    public var book: Book
    /// Whether the book is a favourite.
    public var isFavorite: Bool
    /// The book's Project Gutenberg id.
    public var id: Int { book.id }
  }

  /// Everything a browse screen shows.
  public struct State: Sendable, Hashable {
    /// The query of the page on screen (its `page` is the current page number).
    public var query: BookQuery
    /// The rows of the page shown.
    public var items: [Item]
    /// Books matching the query in all; nil before the first page arrives.
    public var totalCount: Int?
    /// Whether a load is running, done (and from where) or failed.
    public var load: LoadState
    /// What is known of the network.
    public var network: NetworkState

    /// The current page number.
    public var page: Int { query.page }
    /// Pages for the query; nil before the first page arrives.
    public var pageCount: Int? { totalCount.map(BookQuery.pageCount(forResults:)) }
  }

  /// The catalogue the view model reads and writes through.
  public let service: CatalogService
  private let state: ObservableState<State>
  /// How long a page must stay on screen before the next one is fetched in the background.
  public var prefetchDelay: Duration
  /// Whether to prefetch at all (switched off for the benchmark's baseline).
  public var prefetchEnabled: Bool
  private let sleep: @Sendable (Duration) async throws -> Void
  private var prefetch:
    (key: String, task: Task<LoadedPage, any Error>, progress: PrefetchProgress)?
  /// The subscription to the store's changes (a favourite added anywhere shows its star).
  private var changes: ObservationToken?
  private var visited: [String: LoadedPage] = [:]
  private var visitOrder: [String] = []
  private static let visitedLimit = 16

  /// A browser over `service`; the prefetch delay and sleep are injectable for tests.
  public init(
    service: CatalogService, query: BookQuery = BookQuery(), prefetchDelay: Duration = .zero,
    prefetchEnabled: Bool = true,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.service = service
    self.prefetchDelay = prefetchDelay
    self.prefetchEnabled = prefetchEnabled
    self.sleep = sleep
    state = ObservableState(
      State(query: query, items: [], totalCount: nil, load: .idle, network: service.networkState)
    )
    changes = service.observeChanges { [weak self] change in
      guard change.contains(.favorites) else { return }
      await self?.readFavoriteFlags()
    }
  }

  isolated deinit {
    prefetch?.task.cancel()
  }

  /// The current state.
  public var current: State { state.value }

  /// Calls `observer` now and after every change; keep the token to keep observing.
  public func observe(_ observer: @escaping @MainActor @Sendable (State) -> Void)
    -> ObservationToken
  {
    state.observe(observer)
  }

  /// Loads the current query's page (the first load, or again after a failure).
  public func load() async {
    await show(current.query, useVisited: false)
  }

  /// Goes to the next page.
  public func next() async {
    guard let pageCount = current.pageCount else { return await load() }
    guard current.page < pageCount else {
      return fail(.pageOutOfRange(page: current.page + 1, pageCount: pageCount))
    }
    await show(current.query.atPage(current.page + 1), useVisited: true)
  }

  /// Goes to the previous page.
  public func previous() async {
    guard current.page > 1 else {
      return fail(.invalidInput("already on the first page"))
    }
    await show(current.query.atPage(current.page - 1), useVisited: true)
  }

  /// Jumps to page `page`, checked against the page count.
  public func goTo(page: Int) async {
    if let pageCount = current.pageCount, !(1...pageCount).contains(page) {
      return fail(.pageOutOfRange(page: page, pageCount: pageCount))
    }
    guard page >= 1 else { return fail(.pageOutOfRange(page: page, pageCount: 1)) }
    await show(current.query.atPage(page), useVisited: true)
  }

  /// Runs a new query from its first page; stale prefetches are cancelled.
  public func setQuery(_ query: BookQuery) async {
    await show(query.atPage(1), useVisited: true)
  }

  /// Fetches the current page again, bypassing what this session remembers.
  public func refresh() async {
    // A reload is a request for the server, even one that failed a moment ago.
    service.askServerAgain()
    visited.removeAll()
    visitOrder.removeAll()
    cancelPrefetch()
    await show(current.query, useVisited: false)
  }

  /// Flips the favourite flag of the books in these rows (1-based); all rows are checked first.
  public func toggleFavorites(rows: [Int]) async {
    let items = current.items
    guard !rows.isEmpty else { return fail(.invalidInput("which rows? e.g. f 3 or f 2-4")) }
    if let bad = rows.first(where: { !(1...max(items.count, 1)).contains($0) || items.isEmpty }) {
      return fail(.noSuchRow(row: bad, rowCount: items.count))
    }
    // A new action replaces the message of an earlier failed one.
    dismissError()
    // "f 2 2" means row 2: toggling it twice would silently undo the request.
    var seen = Set<Int>()
    let unique = rows.filter { seen.insert($0).inserted }
    // The service returns once its change has reached this view model's subscription, so
    // the rows' flags are already current here.
    do {
      _ = try await service.toggleFavorites(unique.map { items[$0 - 1].book })
    } catch {
      return fail(error)
    }
  }

  /// Reads the rows' favourite flags again: the store announced a change to the favourites
  /// (made on another screen, by an import, or by another process).
  private func readFavoriteFlags() async {
    let ids = current.items.map(\.book.id)
    guard !ids.isEmpty else { return }
    // A store that cannot be read now keeps the flags as they were; the next action that
    // needs the store reports the problem.
    guard let favorites = try? await service.favoriteIDs(among: ids) else { return }
    var items = current.items
    for index in items.indices { items[index].isFavorite = favorites.contains(items[index].id) }
    guard items != current.items else { return }
    state.update { $0.items = items }
  }

  /// Clears a failed state back to what is on screen.
  public func dismissError() {
    guard current.load.error != nil else { return }
    state.update { $0.load = lastGoodLoad }
  }

  // MARK: - Loading

  private var lastGoodLoad: LoadState = .idle

  private func show(_ query: BookQuery, useVisited: Bool) async {
    if query.cacheKey != current.query.cacheKey { cancelPrefetch() }
    let key = query.encoded
    let loaded: LoadedPage
    if useVisited, let page = visited[key] {
      loaded = page
    } else {
      state.update {
        $0.load = .loading
        $0.network = service.networkState
      }
      do {
        loaded = try await fetch(query, key: key)
      } catch {
        return fail(CatalogError(error))
      }
    }
    await apply(loaded)
    remember(loaded, key: key)
    schedulePrefetch(after: loaded)
  }

  private func fetch(_ query: BookQuery, key: String) async throws -> LoadedPage {
    if let prefetch, prefetch.key == key {
      self.prefetch = nil
      let task = prefetch.task
      if prefetch.progress.requested.load(ordering: .acquiring) {
        // Waiting on the prefetch must stay cancellable (Ctrl-C while it is still in flight).
        let page = await withTaskCancellationHandler {
          try? await task.value
        } onCancel: {
          task.cancel()
        }
        if let page { return page }
        try Task.checkCancellation()
      } else {
        // Still waiting out its delay: asking now is quicker than waiting for the delay.
        task.cancel()
      }
    }
    // Awaited in the caller's task, so cancelling the caller cancels the request too.
    return try await service.page(query)
  }

  private func apply(_ loaded: LoadedPage) async {
    let ids = loaded.page.results.map(\.id)
    let favorites = (try? await service.favoriteIDs(among: ids)) ?? []
    lastGoodLoad = loaded.loadState
    state.update { state in
      state.query = loaded.query
      state.items = loaded.page.results.map {
        Item(book: $0, isFavorite: favorites.contains($0.id))
      }
      state.totalCount = loaded.page.count
      state.load = loaded.loadState
      state.network = service.networkState
    }
  }

  private func fail(_ error: CatalogError) {
    state.update { state in
      state.load = error == .cancelled ? lastGoodLoad : .failed(error)
      state.network = service.networkState
    }
  }

  private func remember(_ loaded: LoadedPage, key: String) {
    // Only live pages are remembered: a fallback page should be replaced as soon as the
    // server is back.
    guard loaded.fallbackReason == nil else { return }
    visited[key] = loaded
    visitOrder.removeAll { $0 == key }
    visitOrder.append(key)
    while visitOrder.count > Self.visitedLimit {
      visited.removeValue(forKey: visitOrder.removeFirst())
    }
  }

  private func schedulePrefetch(after loaded: LoadedPage) {
    guard prefetchEnabled else { return }
    let pageCount = loaded.page.pageCount
    guard loaded.query.page < pageCount else { return }
    let next = loaded.query.atPage(loaded.query.page + 1)
    let key = next.encoded
    guard visited[key] == nil, prefetch?.key != key else { return }
    cancelPrefetch()
    let service = self.service
    let sleep = self.sleep
    let delay = prefetchDelay
    let progress = PrefetchProgress()
    prefetch = (
      key,
      Task.detached {
        if delay > .zero { try await sleep(delay) }
        // An injected sleep may return even when cancelled; a cancelled prefetch sends nothing.
        try Task.checkCancellation()
        progress.requested.store(true, ordering: .releasing)
        return try await service.page(next)
      },
      progress
    )
  }

  private func cancelPrefetch() {
    prefetch?.task.cancel()
    prefetch = nil
  }

  /// True while a prefetch is scheduled or running (for tests and the status screen).
  public var isPrefetching: Bool { prefetch != nil }

  /// Waits for the running prefetch, if any, to finish (for tests and benchmarks).
  public func waitForPrefetch() async {
    _ = try? await prefetch?.task.value
  }

  /// Whether a prefetch has sent its request yet, set from its background task.
  private final class PrefetchProgress: Sendable {
    let requested = Atomic(false)
  }
}
