/// What a sync has done so far, as ``CatalogService/syncCatalogue(full:feed:sources:events:)``
/// tells it (from any thread), for a progress line: the front draws these and never reads the
/// sync's files. The model layer's own type (the engine's events, told again), so the front
/// draws a sync's progress without importing the engine.
public enum SyncProgressEvent: Sendable, Hashable {
  /// A page of the server's catalogue (or a batch of held books) arrived with `books` books.
  case page(books: Int)
  /// Project Gutenberg's feed: `bytes` of the archive received so far (of `total`, when the
  /// server announced it), and `books` read from it.
  case feed(bytes: Int64, total: Int64?, books: Int)
  /// Project Gutenberg's per-book records: `books` fetched and read so far, of `of`.
  case record(books: Int, of: Int)
}
