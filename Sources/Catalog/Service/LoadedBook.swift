import Gutendex

/// One book together with where it came from, as ``LoadedPage`` is for pages.
public struct LoadedBook: Sendable, Hashable {
  /// The book as decoded.
  public var book: Book
  /// Where it came from (server, saved favourite, local catalogue), and why when not the
  /// server.
  public var provenance: Provenance

  /// A book with its provenance, and why the server was not used when it was not.
  public init(book: Book, source: PageSource, fallbackReason: String? = nil) {
    self.book = book
    provenance = Provenance(source, fallbackReason: fallbackReason)
  }

  /// Where it came from.
  public var source: PageSource { provenance.source }
}
