import Foundation

/// One page of the favourites list, with what the list header shows.
public struct FavoritesPage: Sendable, Hashable {
  /// The favourites on this page.
  public var favorites: [Favorite]
  /// All favourites, not just this page.
  public var count: Int
  /// The 1-based page number, within 1...pageCount.
  public var page: Int
  /// When the favourites were last refreshed from the server.
  public var lastRefreshed: Date?
}
