import Gutendex

/// A page of books together with the query it answers and where it came from.
public struct LoadedPage: Sendable, Hashable {
  /// The query the page answers.
  public var query: BookQuery
  /// The page as decoded.
  public var page: BookPage
  /// Where it came from (server, cache, local catalogue), and why when not the server.
  public var provenance: Provenance

  /// A page with its provenance, and why the server was not used when it was not.
  public init(query: BookQuery, page: BookPage, source: PageSource, fallbackReason: String? = nil) {
    self.query = query
    self.page = page
    self.provenance = Provenance(source, fallbackReason: fallbackReason)
  }

  /// Where it came from: server, cache, local catalogue or favourites.
  public var source: PageSource { provenance.source }

  /// Why a fallback was used (the server error or "simulated offline"), nil when live.
  public var fallbackReason: String? { provenance.fallbackReason }

  /// The load state this page puts a screen in.
  public var loadState: LoadState { .loaded(provenance) }
}
