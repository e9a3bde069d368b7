import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Catalog

@MainActor
@Suite("BookDetailViewModel")
struct BookDetailViewModelTests {
  let local = CatalogFixtures.made(4)

  @Test func loadsABookLive() async throws {
    let harness = try CatalogHarness()
    let model = BookDetailViewModel(service: harness.service)
    #expect(model.current.load == .idle)
    let seen = Delivered<LoadState>()
    let token = model.observe { seen.append($0.load) }
    await model.load(id: 84)
    #expect(seen.values == [.idle, .loading, .loaded(.network)])
    let book = try #require(model.current.book)
    #expect(book.title == "Frankenstein; Or, The Modern Prometheus")
    #expect(book.summaries?.isEmpty == false)
    #expect(model.current.isFavorite == false)
    #expect(model.current.summaryNeedsNetwork == false)
    withExtendedLifetime(token) {}
  }

  @Test func offlineItShowsTheSavedFavouriteAndSaysSo() async throws {
    let harness = try CatalogHarness(localBooks: local)
    let frankenstein = try #require(try CatalogFixtures.books("e4-2025-page1").first)
    let savedAt = CatalogFixtures.date(-3600)
    _ = try harness.favorites.add(frankenstein, at: savedAt)
    harness.server.fail(with: .unreachable)
    let model = BookDetailViewModel(service: harness.service)
    await model.load(id: frankenstein.id)
    #expect(model.current.book == frankenstein)
    #expect(model.current.isFavorite)
    guard case .loaded(let provenance) = model.current.load,
      case .favorite(let date) = provenance.source,
      let reason = provenance.fallbackReason
    else {
      Issue.record("expected an offline favourite, got \(model.current.load)")
      return
    }
    #expect(date == savedAt)
    #expect(reason.contains("cannot reach test.local"))
    #expect(model.current.summaryNeedsNetwork == false)
  }

  @Test func simulatedOfflineSaysSoWithoutAsking() async throws {
    let harness = try CatalogHarness()
    let book = try #require(try CatalogFixtures.books("e4-2025-page1").last)
    _ = try harness.favorites.add(book, at: CatalogFixtures.date())
    harness.service.network.simulateOffline(true)
    let model = BookDetailViewModel(service: harness.service)
    await model.load(id: book.id)
    #expect(
      model.current.load
        == .loaded(
          .fallback(.favorite(savedAt: CatalogFixtures.date()), reason: "simulated offline")))
    #expect(harness.server.requests.isEmpty)
  }

  @Test func fromTheLocalCatalogueTheSummaryNeedsTheNetwork() async throws {
    let harness = try CatalogHarness(localBooks: local)
    harness.server.fail(with: .status(503))
    let model = BookDetailViewModel(service: harness.service)
    await model.load(id: local[2].id)
    #expect(model.current.book?.title == local[2].title)
    guard case .loaded(let provenance) = model.current.load,
      case .local(let name) = provenance.source,
      let reason = provenance.fallbackReason
    else {
      Issue.record("expected an offline local book, got \(model.current.load)")
      return
    }
    #expect(name == CatalogHarness.localName)
    #expect(reason.contains("HTTP 503"))
    #expect(model.current.summaryNeedsNetwork)
  }

  @Test func inLocalOnlyModeTheLocalBookIsSimplyLoaded() async throws {
    let harness = try CatalogHarness(localBooks: local, mode: .localOnly)
    let model = BookDetailViewModel(service: harness.service)
    await model.load(id: local[0].id)
    #expect(model.current.load == .loaded(.local(name: CatalogHarness.localName)))
    #expect(model.current.summaryNeedsNetwork)
    #expect(harness.server.requests.isEmpty)
  }

  @Test func aBookTheServerDoesNotHaveFails() async throws {
    let harness = try CatalogHarness(localBooks: local)
    let model = BookDetailViewModel(service: harness.service)
    await model.load(id: 84)
    await model.load(id: 123_456_789)
    guard case .failed(.server(.http(404, _, _))) = model.current.load else {
      Issue.record("expected a 404 failure, got \(model.current.load)")
      return
    }
    #expect(model.current.book?.id == 84, "the book shown before stays")
    #expect(harness.localCatalogueOpens == 0)
  }

  @Test(arguments: [0, -5])
  func aBadIDFailsWithoutARequest(id: Int) async throws {
    let harness = try CatalogHarness()
    let model = BookDetailViewModel(service: harness.service)
    await model.load(id: id)
    #expect(
      model.current.load == .failed(.invalidInput("a book id is a positive number, not \(id)")))
    #expect(harness.server.requests.isEmpty)
  }

  @Test func toggleFavoriteIsDurable() async throws {
    let harness = try CatalogHarness()
    let model = BookDetailViewModel(service: harness.service)
    await model.load(id: 1342)
    await model.toggleFavorite()
    #expect(model.current.isFavorite)
    let other = try harness.reopenFavorites()
    #expect(try other.favorite(id: 1342)?.book.title == "Pride and Prejudice")
    await model.toggleFavorite()
    #expect(model.current.isFavorite == false)
    #expect(try other.isFavorite(1342) == false)
    #expect(model.current.load == .loaded(.network))
  }

  @Test func toggleWithNoBookShownIsAnError() async throws {
    let harness = try CatalogHarness()
    let model = BookDetailViewModel(service: harness.service)
    await model.toggleFavorite()
    #expect(model.current.load == .failed(.invalidInput("no book is shown")))
    #expect(try harness.favorites.count() == 0)
  }

  @Test func startingFromARowShowsItsFlagsWithoutARequest() async throws {
    let harness = try CatalogHarness(localBooks: local)
    _ = try harness.favorites.add(local[1])
    let model = await BookDetailViewModel(
      service: harness.service, book: local[1],
      source: .loaded(
        .fallback(.local(name: CatalogHarness.localName), reason: "simulated offline")))
    #expect(model.current.isFavorite)
    #expect(model.current.summaryNeedsNetwork)
    #expect(model.current.book == local[1])
    let live = try #require(try CatalogFixtures.books("e4-2025-page1").first)
    let liveModel = await BookDetailViewModel(
      service: harness.service, book: live, source: .loaded(.network))
    #expect(liveModel.current.isFavorite == false)
    #expect(liveModel.current.summaryNeedsNetwork == false)
    #expect(harness.server.requests.isEmpty)
  }

  @Test func cancellingALoadKeepsWhatWasShown() async throws {
    let harness = try CatalogHarness()
    let model = BookDetailViewModel(service: harness.service)
    await model.load(id: 84)
    harness.server.hold { $0.path.hasSuffix("/2701") }
    let load = Task { await model.load(id: 2701) }
    _ = try await harness.server.waitForRequest { $0.path.hasSuffix("/2701") }
    #expect(model.current.load == .loading)
    load.cancel()
    try await Awaiting.value("the cancelled load to end") { await load.value }
    #expect(model.current.load == .loaded(.network))
    #expect(model.current.book?.id == 84)
  }
}
