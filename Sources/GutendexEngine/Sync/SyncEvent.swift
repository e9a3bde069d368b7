/// What a sync has done so far, told as it goes (from any thread), for a progress line: the
/// front draws these and never reads the sync's files.
public enum SyncEvent: Sendable, Hashable {
  /// A page of the server's catalogue (or a batch of held books) arrived with `books` books.
  case page(books: Int)
  /// Project Gutenberg's feed: `bytes` of the archive received so far (of `total`, when the
  /// server announced it), and `books` read from it.
  case feed(bytes: Int64, total: Int64?, books: Int)
}
