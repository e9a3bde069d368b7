import Foundation
import Gutendex

/// The favourites intents: everything the front may do with the favourites, off the main actor.
extension CatalogService {
  /// Whether book `id` is a favourite.
  public func isFavorite(_ id: Int) async throws(CatalogError) -> Bool {
    return try await withFavorites { favorites throws(StoreError) in try favorites.isFavorite(id) }
  }

  /// The ids among `ids` that are favourites.
  public func favoriteIDs(among ids: [Int]) async throws(CatalogError) -> Set<Int> {
    return try await withFavorites { favorites throws(StoreError) in
      try favorites.favoriteIDs(among: ids)
    }
  }

  /// Flips the favourite flag of `book`; returns whether it is a favourite now (durable).
  public func toggleFavorite(_ book: Book) async throws(CatalogError) -> Bool {
    let now = try await withFavorites { favorites throws(StoreError) in try favorites.toggle(book) }
    await settleChanges()
    return now
  }

  /// Flips the favourite flag of each book in turn; returns the ids that are favourites now.
  public func toggleFavorites(_ books: [Book]) async throws(CatalogError) -> Set<Int> {
    let now = try await withFavorites { favorites throws(StoreError) in
      try favorites.toggle(books)
    }
    await settleChanges()
    return now
  }

  /// Removes the favourites with these ids, in order, in one transaction (10,000 ids are one
  /// commit); returns, for each id, whether it was a favourite (the second of an id named
  /// twice was not).
  public func removeFavorites(ids: [Int]) async throws(CatalogError) -> [Bool] {
    let removed = try await withFavorites { favorites throws(StoreError) in
      try favorites.remove(each: ids)
    }
    await settleChanges()
    return removed
  }

  /// One page of the favourites in `order` (the page clamped to 1...pageCount), with the count
  /// and the last refresh, read in one go.
  public func favoritesPage(order: FavoriteOrder, page: Int, pageSize: Int = BookQuery.pageSize)
    async throws(CatalogError) -> FavoritesPage
  {
    return try await withFavorites { favorites throws(StoreError) in
      let count = try favorites.count()
      let pageCount = max(1, (count + pageSize - 1) / pageSize)
      let page = min(max(page, 1), pageCount)
      let list = try favorites.favorites(
        order: order, limit: pageSize, offset: (page - 1) * pageSize)
      return FavoritesPage(
        favorites: list, count: count, page: page, lastRefreshed: try favorites.lastRefreshed())
    }
  }

  /// Every favourite in `order`.
  public func allFavorites(order: FavoriteOrder) async throws(CatalogError) -> [Favorite] {
    return try await withFavorites { favorites throws(StoreError) in
      try favorites.favorites(order: order)
    }
  }

  /// How many favourites there are and when they were last refreshed from the server.
  public func favoritesSummary() async throws(CatalogError) -> (count: Int, lastRefreshed: Date?) {
    return try await withFavorites { favorites throws(StoreError) in
      (try favorites.count(), try favorites.lastRefreshed())
    }
  }

  /// Calls `body` with the favourites in `order`, a window of 500 at a time, all from one read:
  /// a long list is printed without holding every book.
  public func forEachFavorites(
    order: FavoriteOrder, _ body: @escaping @Sendable ([Favorite]) -> Void
  ) async throws(CatalogError) {
    try await withFavorites { favorites throws(StoreError) in
      try favorites.forEachWindow(order: order, size: 500, body)
    }
  }

  /// Adds the books found for a command's ids, in order, in one transaction; each is added
  /// at its own `addedAt` (when it was found), so the favourites keep the order they were
  /// named in. Returns, for each book, whether it was not a favourite before (the second of a
  /// book named twice was).
  public func addFavorites(_ books: [(book: Book, addedAt: Date)]) async throws(CatalogError)
    -> [Bool]
  {
    guard !books.isEmpty else { return [] }
    let added = try await withFavorites { favorites throws(StoreError) in try favorites.add(books) }
    await settleChanges()
    return added
  }

  /// Export and import of the favourites as documents.
  public var transfer: FavoritesTransfer {
    FavoritesTransfer(favorites: favorites) { [self] in await settleChanges() }
  }

  /// Runs `work` on the favourites store off the main actor, waiting for a writer as the
  /// store does.
  private func withFavorites<T: Sendable>(
    _ work: @escaping @Sendable (FavoritesStore) throws(StoreError) -> T
  ) async throws(CatalogError) -> T {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try work(favorites)
    }
  }
}
