/// How ``FavoritesStore/favorites(order:limit:offset:)`` sorts.
public enum FavoriteOrder: String, Sendable, CaseIterable {
  /// Most recently added first.
  case newest
  /// By title, case- and accent-insensitively; ties by id.
  case title
  /// By first author's name ("Last, First"), then title; books without an author last.
  case author
}
