import Catalog
import Gutendex

/// The catalogue list the browser shows: the query, how many books it finds, and the rows held
/// so far by their place in the whole list (0 is the first book), so a screen can show any run
/// of rows, across the server's pages of 32, without a seam.
package struct CatalogueList: Sendable, Hashable {
  /// The query (its page is the last one the list's view model showed).
  package var query: BookQuery
  /// Books the query finds; nil before its first page arrives.
  package var totalCount: Int?
  /// How the last page arrived (its provenance) or that it is loading.
  package var load: LoadState = .idle
  /// The rows held, by place in the list.
  package var rows: [Int: BrowserViewModel.Item] = [:]
  /// The place of the first row on screen.
  package var top = 0
  /// Where the screen is going while the rows it needs load (nil: it is where it shows).
  package var target: Int?

  /// A list for `query`, nothing loaded yet, going to its first row.
  package init(query: BookQuery) {
    self.query = query.atPage(1)
    target = 0
  }

  /// Server pages of books.
  static let pageSize = BookQuery.pageSize

  /// The page (from 1) holding place `index`.
  static func page(of index: Int) -> Int { index / pageSize + 1 }

  /// The place of page `page`'s first row.
  static func firstIndex(ofPage page: Int) -> Int { (page - 1) * pageSize }

  /// Pages the query has; nil before its first page arrives.
  package var pageCount: Int? { totalCount.map(BookQuery.pageCount(forResults:)) }

  /// The places a screen of `count` rows from `start` shows (cut at the end of the list).
  func places(from start: Int, count: Int) -> Range<Int> {
    let end = totalCount.map { min($0, start + count) } ?? start + count
    return start..<max(start, end)
  }

  /// The pages whose rows a screen of `count` rows from `start` needs and the list lacks, in
  /// order; empty when it can be shown. Before the first page arrives, page 1 (or `start`'s).
  func missingPages(from start: Int, count: Int) -> [Int] {
    guard totalCount != nil else { return [Self.page(of: start)] }
    var pages: [Int] = []
    for index in places(from: start, count: count) where rows[index] == nil {
      let page = Self.page(of: index)
      if pages.last != page { pages.append(page) }
    }
    return pages
  }

  /// The rows of a screen of `count` rows from `start`, those held.
  func items(from start: Int, count: Int) -> [BrowserViewModel.Item] {
    places(from: start, count: count).compactMap { rows[$0] }
  }

  /// Takes what the list's view model published: a page of this query (its rows stored at
  /// their places, the count and provenance kept). A page of another query starts the list
  /// anew. Returns false when the state was not a settled page (loading, failed, idle).
  mutating func take(_ state: BrowserViewModel.State) -> Bool {
    // A page of another query is left: the list's query changed since it was asked for.
    guard case .loaded = state.load, state.query.cacheKey == query.cacheKey else { return false }
    totalCount = state.totalCount
    load = state.load
    let first = Self.firstIndex(ofPage: state.page)
    for (offset, item) in state.items.enumerated() { rows[first + offset] = item }
    // A page that came back shorter (the catalogue shrank) drops what lay past it.
    if let total = totalCount { rows = rows.filter { $0.key < total } }
    return true
  }

  /// Forgets rows far from the screen (more than two pages away), so a long walk through the
  /// list holds a few pages, not all of them.
  mutating func trim(keeping count: Int) {
    let low = Self.firstIndex(ofPage: max(1, Self.page(of: top) - 2))
    let high = Self.firstIndex(ofPage: Self.page(of: top + count) + 3)
    rows = rows.filter { (low..<high).contains($0.key) }
  }

  /// Sets each held row's favourite flag from `flags` (by book id).
  mutating func setFlags(_ flags: [Int: Bool]) {
    for (index, item) in rows {
      if let flag = flags[item.id], flag != item.isFavorite { rows[index]?.isFavorite = flag }
    }
  }
}
