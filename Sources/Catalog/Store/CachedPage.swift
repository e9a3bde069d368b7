import Foundation
import Gutendex

/// A page read back from the ``PageCache``, with when it was fetched from the server.
public struct CachedPage: Sendable, Hashable {
  /// The page as the server sent it, each book with its raw bytes.
  public var page: BookPage
  /// When the page was fetched from the server.
  public var fetchedAt: Date

  /// Pairs a page with its fetch time.
  public init(page: BookPage, fetchedAt: Date) {
    self.page = page
    self.fetchedAt = fetchedAt
  }
}
