import Foundation
import Gutendex
import Testing

@testable import Catalog

@MainActor
@Suite("StatusViewModel")
struct StatusViewModelTests {
  @Test func showsTheFiguresAfterAFewRequests() async throws {
    let harness = try CatalogHarness(localBooks: [])
    _ = try harness.favorites.add(CatalogFixtures.made(2))
    _ = try await harness.service.page(BookQuery())
    _ = try await harness.service.page(BookQuery(page: 2))
    harness.server.fail(with: .unreachable)
    _ = try await harness.service.page(BookQuery(page: 2))

    let model = StatusViewModel(service: harness.service)
    #expect(model.current.server.absoluteString == "http://test.local")
    #expect(model.current.mode == .automatic)
    #expect(model.current.localCatalogue == CatalogHarness.localName)
    #expect(model.current.favoritesCount == nil)
    #expect(model.current.load == .idle)

    await model.refresh(probe: false)
    #expect(model.current.favoritesCount == 2)
    #expect(model.current.favoritesRefreshed == nil)
    let cache = try #require(model.current.cache)
    #expect(cache.entries == 2)
    #expect(cache.bytes > 0)
    #expect(cache.newest == harness.clock.now)
    #expect(
      model.current.requests.map(\.url) == [
        "cache: page=2", "http://test.local/books/?page=2", "http://test.local/books/?page=2",
        "http://test.local/books/",
      ])
    #expect(model.current.requests.map(\.origin) == [.cache, .network, .network, .network])
    #expect(model.current.network.isOffline)
    #expect(model.current.serverAnswers == nil, "no probe, no answer")
    #expect(model.current.load.error == nil)
    #expect(harness.server.requests.count == 3)
  }

  @Test func aProbeAsksTheServerAndRecordsWhen() async throws {
    let harness = try CatalogHarness(cache: false)
    let model = StatusViewModel(service: harness.service)
    await model.refresh(probe: true)
    #expect(model.current.serverAnswers == true)
    #expect(model.current.checkedAt == harness.clock.now)
    #expect(model.current.network == .online)
    #expect(model.current.cache == nil)
    #expect(model.current.requests.first?.url == "http://test.local/books/?ids=1")

    harness.clock.advance(by: 30)
    harness.server.fail(with: .unreachable)
    await model.refresh(probe: true)
    #expect(model.current.serverAnswers == false)
    #expect(model.current.checkedAt == harness.clock.now)
    #expect(model.current.network.isOffline)

    harness.clock.advance(by: 30)
    await model.refresh(probe: false)
    #expect(model.current.serverAnswers == false, "the last answer stays until the next probe")
    #expect(model.current.checkedAt == harness.clock.now.addingTimeInterval(-30))
  }

  @Test func noProbeWhenOfflineIsSimulatedOrTheSourceIsLocal() async throws {
    let simulated = try CatalogHarness()
    simulated.service.network.simulateOffline(true)
    let model = StatusViewModel(service: simulated.service)
    await model.refresh(probe: true)
    #expect(model.current.serverAnswers == nil)
    #expect(model.current.network == .simulatedOffline)
    #expect(simulated.server.requests.isEmpty)

    let local = try CatalogHarness(localBooks: [], mode: .localOnly)
    let localModel = StatusViewModel(service: local.service)
    await localModel.refresh(probe: true)
    #expect(localModel.current.mode == .localOnly)
    #expect(localModel.current.network == .localOnly)
    #expect(localModel.current.serverAnswers == nil)
    #expect(local.server.requests.isEmpty)
  }

  @Test func theRefreshTimeOfFavouritesShows() async throws {
    let harness = try CatalogHarness()
    _ = try harness.favorites.add(try CatalogFixtures.books("e4-2025-page1").prefix(3).map { $0 })
    _ = try await harness.service.refreshFavorites()
    let model = StatusViewModel(service: harness.service)
    await model.refresh(probe: false)
    #expect(model.current.favoritesCount == 3)
    #expect(model.current.favoritesRefreshed == harness.clock.now)
    #expect(model.current.requests.count == 1)
  }
}
