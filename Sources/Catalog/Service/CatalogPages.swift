import Gutendex

/// Every page of a query through the service, as an `AsyncSequence`: each page live when the
/// server answers, else from the cache or the local catalogue, with its provenance.
///
/// This is the one way the front walks a whole listing (`gutenberg list --all`). Like
/// ``BookPages`` (the client's walk along the server's `next` links), it drops books already
/// seen on an earlier page, since the popularity order can shift while paging, and ends after
/// the last page or on an empty one. Unlike it, each page goes through
/// ``CatalogService/page(_:)``, so a server that fails part-way hands over to the fallbacks
/// instead of ending the walk.
public struct CatalogPages: AsyncSequence, Sendable {
  /// Each element is one page, with where it came from.
  public typealias Element = LoadedPage

  /// The service the pages come through.
  public let service: CatalogService
  /// The listing, from its `page` onwards.
  public let query: BookQuery

  /// An iterator from the query's page to the last.
  public func makeAsyncIterator() -> Iterator {
    Iterator(service: service, next: query)
  }

  /// Fetches one page after another.
  public struct Iterator: AsyncIteratorProtocol {
    let service: CatalogService
    var next: BookQuery?
    var seen: Set<Int> = []

    /// The next page (without books seen before), nil after the last.
    public mutating func next() async throws(CatalogError) -> LoadedPage? {
      guard let query = next else { return nil }
      next = nil
      var loaded = try await service.page(query)
      let wasEmpty = loaded.page.results.isEmpty
      loaded.page.results.removeAll { !seen.insert($0.id).inserted }
      // An empty page past the first means the listing ended early (it shrank meanwhile).
      if wasEmpty, query.page > 1 { return nil }
      if !wasEmpty, query.page < loaded.page.pageCount { next = query.atPage(query.page + 1) }
      return loaded
    }
  }
}

extension CatalogService {
  /// Every page of `query` from its page on, each through ``page(_:)`` with its fallbacks.
  public func pages(_ query: BookQuery) -> CatalogPages {
    CatalogPages(service: self, query: query)
  }
}
