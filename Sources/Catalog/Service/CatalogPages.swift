import Gutendex

/// Every page of a query through the service, as an `AsyncSequence`: each page live when the
/// server answers, else from the cache or the local catalogue, with its provenance.
///
/// This is the one way the front walks a whole listing (`gutenberg list --all`). It is the
/// network module's ``PageWalk`` (the walk ``BookPages`` also is): the same rule drops books
/// already seen and ends the walk; here each page goes through ``CatalogService/page(_:)``,
/// so a server that fails part-way hands over to the fallbacks instead of ending the walk.
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

  /// The pages, one after another, through ``PageWalk`` (the one paginator, also the
  /// client's): page numbers instead of links, each page through the service's fallbacks.
  public struct Iterator: AsyncIteratorProtocol {
    var walk: PageWalk<BookQuery, LoadedPage, CatalogError>.Iterator

    init(service: CatalogService, next query: BookQuery) {
      walk = PageWalk<BookQuery, LoadedPage, CatalogError>(
        from: query,
        fetch: { query throws(CatalogError) in try await service.page(query) },
        advance: { loaded, query in
          query.page < loaded.page.pageCount ? query.atPage(query.page + 1) : nil
        }
      ).makeAsyncIterator()
    }

    /// The next page (without books seen before), nil after the last.
    public mutating func next() async throws(CatalogError) -> LoadedPage? {
      try await walk.next()
    }
  }
}

extension LoadedPage: WalkablePage {
  /// The page's results.
  public var books: [Book] {
    get { page.results }
    set { page.results = newValue }
  }
}

extension CatalogService {
  /// Every page of `query` from its page on, each through ``page(_:)`` with its fallbacks.
  public func pages(_ query: BookQuery) -> CatalogPages {
    CatalogPages(service: self, query: query)
  }
}
