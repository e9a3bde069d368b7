import Gutendex

/// A page of books together with the query it answers and where it came from.
public struct LoadedPage: Sendable, Hashable {
  /// The query the page answers.
  public var query: BookQuery
  /// The page as decoded.
  public var page: BookPage
  /// Where it came from: server, cache, local catalogue or favourites.
  public var source: PageSource
  /// Why a fallback was used (the server error or "simulated offline"), nil when live.
  public var fallbackReason: String?

  /// A page with its provenance, and why the server was not used when it was not.
  public init(query: BookQuery, page: BookPage, source: PageSource, fallbackReason: String? = nil) {
    self.query = query
    self.page = page
    self.source = source
    self.fallbackReason = fallbackReason
  }

  /// The load state this page puts a screen in.
  public var loadState: LoadState {
    if let fallbackReason { return .offline(source, reason: fallbackReason) }
    return .loaded(source)
  }
}
