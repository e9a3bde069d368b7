import Foundation
import Gutendex

/// A page read back from the ``PageCache``, with when it was fetched from the server.
public struct CachedPage: Sendable, Hashable {
  public var page: BookPage
  public var fetchedAt: Date

  public init(page: BookPage, fetchedAt: Date) {
    self.page = page
    self.fetchedAt = fetchedAt
  }
}
