/// Why the local catalogue store has no answer (the service turns it into a ``CatalogError``
/// that fits the moment: in local-only mode a miss is the catalogue's, offline it is not).
enum CatalogueStoreError: Error, Sendable, Hashable {
  /// The catalogue does not hold book N.
  case notFound(Int)
  /// The query has fewer pages than the one asked for.
  case pageOutOfRange(page: Int, pageCount: Int)
  /// A file of the catalogue cannot be read (the reason).
  case damaged(String)
}
