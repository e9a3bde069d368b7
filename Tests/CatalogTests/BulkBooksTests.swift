import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Catalog

/// `CatalogService.books(ids:)`, the lookup behind `favorites add ID...`: each id answered as
/// `book(id:)` answers it, but the server asked a page of ids at a time.
@Suite("CatalogService: many books at once")
struct BulkBooksTests {
  @Test func theServerIsAskedThirtyTwoIdsAtATimeAndEachIdKeepsItsPlace() async throws {
    let real = try CatalogFixtures.books("e4-2025-page1") + CatalogFixtures.books("en__page_87")
    let wanted = Array(real.prefix(40).reversed())
    let harness = try CatalogHarness(books: real)
    // A book named twice, and one the server lacks, in the middle.
    let first = wanted.prefix(20).map(\.id)
    let ids = first + [999_999_999] + wanted.suffix(20).map(\.id) + [wanted[3].id]
    let loaded = await harness.service.books(ids: ids)

    #expect(loaded.count == ids.count)
    let books = loaded.compactMap { try? $0.get() }
    #expect(books.map(\.book.id) == ids.filter { $0 != 999_999_999 })
    #expect(books.allSatisfy { $0.source == .network })
    let titles = (wanted.prefix(20) + wanted.suffix(20) + [wanted[3]]).map(\.title)
    #expect(books.map(\.book.title) == titles)
    // The one the server lacks fails as `book(id:)` fails, and only it.
    guard case .failure(.server(.http(404, _, _))) = loaded[20] else {
      Issue.record("expected a 404 for the missing book, got \(loaded[20])")
      return
    }
    // Two pages of ids (32 and 9: the duplicate is asked once), then the missing one alone.
    let batches = harness.server.idBatches
    #expect(batches.map(\.count) == [32, 9])
    #expect(Set(batches.flatMap { $0 }) == Set(ids))
    #expect(harness.server.requests.count == 3)
    #expect(harness.server.requests.last?.absoluteString == "http://test.local/books/999999999/")
  }

  @Test func offlineTheFavouritesAndTheLocalCatalogueAnswerAsForOneBook() async throws {
    let (harness, local, frankenstein, addedAt) = try CatalogHarness.unreachableWithFallbacks()

    let ids = [local[1].id, frankenstein.id, 1342, local[0].id]
    let loaded = await harness.service.books(ids: ids)
    // One page of ids fails; only the book found nowhere is then asked for on its own.
    let sent = harness.server.requests.map(\.absoluteString)
    #expect(sent.count == 2, "\(sent)")
    #expect(sent.last == "http://test.local/books/1342/")
    var one: [Result<LoadedBook, CatalogError>] = []
    for id in ids {
      do { one.append(.success(try await harness.service.book(id: id))) } catch {
        one.append(.failure(error))
      }
    }
    #expect(loaded.count == 4)
    #expect(try loaded[0].get().source == .local(name: CatalogHarness.localName))
    #expect(try loaded[1].get().source == .favorite(savedAt: addedAt))
    #expect(try loaded[1].get().book == frankenstein)
    #expect(try loaded[3].get().book.title == local[0].title)
    guard case .failure(let error) = loaded[2] else {
      Issue.record("book 1342 is nowhere, yet it was found: \(loaded[2])")
      return
    }
    #expect(error == .notAvailableOffline("book 1342"))
    // Exactly what asking for each alone gives, the reasons included.
    #expect(loaded.map { try? $0.get() } == one.map { try? $0.get() })
    #expect(
      loaded.compactMap { try? $0.get().provenance.fallbackReason?.hasPrefix("cannot reach") }
        == [true, true, true])
  }

  @Test func inLocalOnlyModeNothingIsSentAndAMissIsTheLocalCatalogues() async throws {
    let local = CatalogFixtures.made(5)
    let harness = try CatalogHarness(localBooks: local, mode: .localOnly)
    let loaded = await harness.service.books(ids: [local[4].id, 1342, local[2].id])
    #expect(try loaded[0].get().book.title == local[4].title)
    #expect(try loaded[2].get().book.title == local[2].title)
    guard case .failure(let error) = loaded[1] else {
      Issue.record("book 1342 is not in the local catalogue, yet it was found")
      return
    }
    #expect(error == .notInLocalCatalogue(1342))
    #expect(harness.server.requests.isEmpty)
  }

  @Test func noIdsAskNothing() async throws {
    let harness = try CatalogHarness()
    #expect(await harness.service.books(ids: []).isEmpty)
    #expect(harness.server.requests.isEmpty)
  }
}
