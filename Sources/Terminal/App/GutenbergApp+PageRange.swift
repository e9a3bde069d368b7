import Catalog
import Gutendex

/// `list --page N` past the last page says so, with the range, as the browser's `g N` does,
/// wherever the pages come from (the server answers 404, the cache and the local catalogue
/// have no such page).
extension GutenbergApp {
  /// The out-of-range error for `query` when asking for its page failed with `error` because
  /// the query has fewer pages (its first page says how many); nil for any other failure.
  func outOfRange(_ query: BookQuery, failedWith error: CatalogError) async -> CatalogError? {
    guard query.page > 1 else { return nil }
    switch error {
    case .notAvailableOffline, .server(.http(status: 404, _, _)): break
    default: return nil
    }
    guard let first = try? await service.page(query.atPage(1)) else { return nil }
    let pageCount = first.page.pageCount
    return query.page > pageCount ? .pageOutOfRange(page: query.page, pageCount: pageCount) : nil
  }
}
