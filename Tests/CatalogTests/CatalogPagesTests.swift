import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Catalog

/// `CatalogService.pages`: the walk over a whole listing that `gutenberg list --all` uses.
@Suite
struct CatalogPagesTests {
  @Test func walksEveryPageOnceInOrder() async throws {
    let harness = try CatalogHarness()
    let catalogue = try CatalogFixtures.catalogue()
    var pages: [LoadedPage] = []
    for try await page in harness.service.pages(BookQuery()) { pages.append(page) }
    #expect(pages.map(\.query.page) == [1, 2, 3])
    #expect(pages.flatMap(\.page.results).map(\.id) == catalogue.map(\.id))
    #expect(pages.allSatisfy { $0.source == .network })
  }

  @Test func aServerLostPartWayHandsOverToTheLocalCatalogue() async throws {
    let catalogue = try CatalogFixtures.catalogue()
    let harness = try CatalogHarness(localBooks: catalogue)
    harness.server.fail { url, _ in (GutendexDouble.page(of: url) ?? 1) >= 2 ? .unreachable : nil }
    var pages: [LoadedPage] = []
    for try await page in harness.service.pages(BookQuery()) { pages.append(page) }
    #expect(pages.map(\.query.page) == [1, 2, 3])
    #expect(
      pages.map(\.source) == [
        .network, .local(name: CatalogHarness.localName), .local(name: CatalogHarness.localName),
      ])
    #expect(pages[0].fallbackReason == nil)
    #expect(pages[1].fallbackReason != nil)
    #expect(pages.flatMap(\.page.results).map(\.id) == catalogue.map(\.id))
  }

  @Test func booksSeenOnAnEarlierPageAreDropped() async throws {
    let catalogue = try CatalogFixtures.catalogue()
    let harness = try CatalogHarness(books: Array(catalogue[0..<40]))
    // As when the popularity order shifts between requests: page 2 repeats a book of page 1.
    let repeated = Array(catalogue[32..<40]) + [catalogue[5]]
    let page2 =
      #"{"count":41,"next":null,"previous":null,"results":["#
      + repeated.map { String(decoding: $0.rawJSON, as: UTF8.self) }.joined(separator: ",") + "]}"
    harness.server.answer(where: { GutendexDouble.page(of: $0) == 2 }, with: Data(page2.utf8))
    var pages: [LoadedPage] = []
    for try await page in harness.service.pages(BookQuery()) { pages.append(page) }
    #expect(pages.map(\.page.results.count) == [32, 8])
    #expect(pages.flatMap(\.page.results).map(\.id) == catalogue[0..<40].map(\.id))
  }

  @Test func aFailureWithNoFallbackEndsTheWalkWithTheError() async throws {
    let harness = try CatalogHarness(cache: false)
    harness.server.fail { url, _ in GutendexDouble.page(of: url) == 2 ? .status(500) : nil }
    var iterator = harness.service.pages(BookQuery()).makeAsyncIterator()
    #expect(try await iterator.next()?.query.page == 1)
    await #expect(throws: CatalogError.self) { _ = try await iterator.next() }
  }
}
