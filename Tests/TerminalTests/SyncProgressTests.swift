import Catalog
import Foundation
import Testing

@testable import Terminal

/// `sync`'s progress line, from the sync's own events: the API's pages, books and rate, or the
/// feed's bytes (of its announced length) and books.
@Suite struct SyncProgressTests {
  @Test func theLineSaysPagesBooksAndRate() {
    #expect(
      SyncProgress.text(pages: 12, books: 384, seconds: 4)
        == "sync: 12 pages · 384 books · 3.0 pages/s")
    #expect(
      SyncProgress.text(pages: 1, books: 1, seconds: 0) == "sync: 1 page · 1 book · 0.0 pages/s")
  }

  @Test func pagesAndBooksCountFromTheEvents() {
    let progress = SyncProgress()
    #expect(
      SyncProgress.text(progress.current, seconds: 1) == "sync: 0 pages · 0 books · 0.0 pages/s")
    progress.record(.page(books: 32))
    progress.record(.page(books: 5))
    #expect(progress.current.pages == 2 && progress.current.books == 37)
    #expect(
      SyncProgress.text(progress.current, seconds: 2) == "sync: 2 pages · 37 books · 1.0 pages/s")
  }

  @Test func theFeedsBytesAndBooksReplaceThePages() {
    let progress = SyncProgress()
    progress.record(.feed(bytes: 3 * 1_048_576, total: 130 * 1_048_576, books: 4_210))
    #expect(
      SyncProgress.text(progress.current, seconds: 2)
        == "sync: feed 3.0 MiB of 130.0 MiB · 4,210 books · 1.5 MiB/s")
    progress.record(.feed(bytes: 512, total: nil, books: 0))
    #expect(
      SyncProgress.text(progress.current, seconds: 1) == "sync: feed 512 B · 0 books · 512 B/s")
  }
}
