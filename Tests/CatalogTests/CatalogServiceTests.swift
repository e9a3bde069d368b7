import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Catalog

@Suite("CatalogService: pages, fallbacks, network state")
struct CatalogServiceTests {
  @Test func aLivePageIsShownAndStoredInTheCache() async throws {
    let harness = try CatalogHarness()
    let query = BookQuery(languages: ["en"])
    let loaded = try await harness.service.page(query)
    #expect(loaded.source == .network)
    #expect(loaded.fallbackReason == nil)
    #expect(loaded.loadState == .loaded(.network))
    #expect(loaded.page.results.first?.title == "Frankenstein; Or, The Modern Prometheus")
    // The server's own filter: the English books of the catalogue.
    let english = try CatalogFixtures.catalogue().filter { $0.languages.contains("en") }
    #expect(loaded.page.count == english.count)
    #expect(loaded.page.results.map(\.id) == english.prefix(32).map(\.id))
    let cached = try #require(try harness.cache?.page(for: query, now: harness.clock.now))
    #expect(cached.page == loaded.page)
    #expect(cached.fetchedAt == harness.clock.now)
    #expect(harness.service.network.current == .online)
  }

  @Test(arguments: [GutendexDouble.Fault.unreachable, .status(503)])
  func anUnavailableServerFallsBackToTheCachedPage(fault: GutendexDouble.Fault) async throws {
    let harness = try CatalogHarness()
    let query = BookQuery(languages: ["en"], page: 2)
    let fetchedAt = harness.clock.now
    let live = try await harness.service.page(query)
    harness.clock.advance(by: 3600)
    harness.server.fail(with: fault)

    let loaded = try await harness.service.page(query)
    #expect(loaded.page == live.page)
    #expect(loaded.source == .cache(fetchedAt: fetchedAt))
    let reason = try #require(loaded.fallbackReason)
    #expect(loaded.loadState == .loaded(.fallback(.cache(fetchedAt: fetchedAt), reason: reason)))
    #expect(reason.contains(fault == .unreachable ? "cannot reach test.local" : "HTTP 503"))
    #expect(harness.service.network.current == .offline(reason: reason, since: harness.clock.now))
    #expect(harness.server.requests.count == 2, "the server is asked first every time")
  }

  @Test func withoutACachedCopyTheLocalCatalogueStandsIn() async throws {
    let local = CatalogFixtures.made(40)
    let harness = try CatalogHarness(localBooks: local)
    harness.server.fail(with: .unreachable)
    let loaded = try await harness.service.page(BookQuery(page: 2))
    #expect(loaded.source == .local(name: CatalogHarness.localName))
    #expect(loaded.page.results.map(\.id) == local[32...].map(\.id))
    let reason = try #require(loaded.fallbackReason)
    #expect(reason.contains("cannot reach"))
    #expect(
      loaded.loadState == .loaded(.fallback(.local(name: CatalogHarness.localName), reason: reason))
    )
    #expect(
      harness.service.log.recent().filter { $0.origin == .local }.map(\.url) == ["local: page=2"])
  }

  @Test func aStaleCachedPageIsNotUsed() async throws {
    let harness = try CatalogHarness(localBooks: CatalogFixtures.made(3))
    _ = try await harness.service.page(BookQuery())
    harness.clock.advance(by: 31 * 86_400)
    harness.server.fail(with: .unreachable)
    let loaded = try await harness.service.page(BookQuery())
    #expect(loaded.source == .local(name: CatalogHarness.localName))
  }

  @Test func withNoFallbackTheServerErrorPassesThrough() async throws {
    let harness = try CatalogHarness()
    harness.server.fail(with: .unreachable)
    let error = await catalogError { try await harness.service.page(BookQuery()) }
    guard case .server(.unreachable(let url, _)) = error else {
      Issue.record("expected .server(.unreachable), got \(String(describing: error))")
      return
    }
    #expect(url.absoluteString == "http://test.local/books/")
  }

  @Test func notFoundIsNotAFallbackCase() async throws {
    let harness = try CatalogHarness(localBooks: CatalogFixtures.made(80))
    _ = try await harness.service.page(BookQuery())
    let error = await catalogError { try await harness.service.page(BookQuery(page: 4)) }
    guard case .server(.http(404, let detail, _)) = error else {
      Issue.record("expected .server(.http(404)), got \(String(describing: error))")
      return
    }
    #expect(detail == "Invalid page.")
    #expect(harness.localCatalogueOpens == 0, "the local catalogue must not answer")
    #expect(harness.service.network.current == .online, "a 404 means the server answered")
  }

  @Test func simulatedOfflineNeverTouchesTheTransport() async throws {
    let harness = try CatalogHarness(localBooks: CatalogFixtures.made(5))
    harness.service.network.simulateOffline(true)
    let loaded = try await harness.service.page(BookQuery())
    #expect(loaded.source == .local(name: CatalogHarness.localName))
    #expect(loaded.fallbackReason == "simulated offline")
    let book = try await harness.service.book(id: 900_002)
    #expect(book.source == .local(name: CatalogHarness.localName))
    // A book's fallback says why, as a page's does: one policy decides both.
    #expect(book.provenance.fallbackReason == loaded.fallbackReason)
    #expect(await harness.service.probe() == false)
    let refresh = await catalogError { try await harness.service.refreshFavorites() }
    #expect(refresh == .notAvailableOffline("a refresh from the server"))
    #expect(harness.server.requests.isEmpty)
    #expect(harness.service.network.current == .simulatedOffline)
  }

  @Test func simulatedOfflineServesTheCacheAndSaysSo() async throws {
    let harness = try CatalogHarness()
    let fetchedAt = harness.clock.now
    _ = try await harness.service.page(BookQuery())
    harness.service.network.simulateOffline(true)
    let loaded = try await harness.service.page(BookQuery())
    #expect(
      loaded.loadState
        == .loaded(.fallback(.cache(fetchedAt: fetchedAt), reason: "simulated offline")))
    #expect(harness.server.requests.count == 1)
    let missing = await catalogError { try await harness.service.page(BookQuery(page: 2)) }
    #expect(missing == .notAvailableOffline("this page"))
    #expect(harness.server.requests.count == 1)
  }

  @Test func localOnlyModeUsesOnlyTheLocalCatalogue() async throws {
    let local = CatalogFixtures.made(10)
    let harness = try CatalogHarness(localBooks: local, mode: .localOnly)
    #expect(harness.service.network.current == .localOnly)
    let loaded = try await harness.service.page(BookQuery())
    #expect(loaded.loadState == .loaded(.local(name: CatalogHarness.localName)))
    #expect(loaded.page.results.map(\.id) == local.map(\.id))
    let book = try await harness.service.book(id: local[3].id)
    #expect(book.book.title == local[3].title)
    #expect(book.source == .local(name: CatalogHarness.localName))
    harness.service.network.simulateOffline(true)
    #expect(harness.service.network.current == .localOnly, "the chosen source stays pinned")
    #expect(harness.server.requests.isEmpty)
    #expect(harness.service.log.recent().allSatisfy { $0.origin == .local })
  }

  @Test func localOnlyWithoutALocalCatalogueSaysSo() async throws {
    let harness = try CatalogHarness(mode: .localOnly)
    let error = await catalogError { try await harness.service.page(BookQuery()) }
    #expect(error == .notAvailableOffline("this page"))
    #expect(harness.server.requests.isEmpty)
  }

  @Test func aLocalCatalogueThatCannotLoadIsAClearError() async throws {
    struct Broken: Error {}
    let harness = try CatalogHarness()
    let local = LocalCatalogue(name: "broken snapshot", hasSummaries: false) { throw Broken() }
    let service = CatalogService(
      client: harness.service.client, favorites: harness.favorites, cache: nil, local: local,
      mode: .localOnly)
    let error = await catalogError { try await service.page(BookQuery()) }
    // Not `.invalidInput` (the user's mistake, exit 64): the installation is at fault.
    guard case .localCatalogueUnavailable(let message) = error else {
      Issue.record("expected .localCatalogueUnavailable, got \(String(describing: error))")
      return
    }
    #expect(message.hasPrefix("cannot open the broken snapshot"))
  }

  @Test func anUnknownLowerLayerErrorIsUnexpectedNotInvalidInput() {
    struct Odd: Error, CustomStringConvertible { var description: String { "odd failure" } }
    #expect(CatalogError(Odd()) == .unexpected("odd failure"))
    #expect(CatalogError(CancellationError()) == .cancelled)
    #expect(
      CatalogError(CatalogError.noSuchRow(row: 3, rowCount: 2)) == .noSuchRow(row: 3, rowCount: 2))
  }

  @Test func theNetworkStateFollowsWhatTheServerDoes() async throws {
    let harness = try CatalogHarness()
    let network = harness.service.network
    #expect(network.current == .unknown)
    _ = try await harness.service.page(BookQuery())
    #expect(network.current == .online)

    harness.server.fail(with: .unreachable)
    let wentOffline = harness.clock.now
    _ = try await harness.service.page(BookQuery())
    guard case .offline(let reason, let since) = network.current else {
      Issue.record("expected offline, got \(network.current)")
      return
    }
    #expect(reason.contains("cannot reach"))
    #expect(since == wentOffline)
    #expect(network.current.isOffline)

    harness.clock.advance(by: 60)
    harness.server.fail(with: .status(502))
    _ = try await harness.service.page(BookQuery())
    guard case .offline(let laterReason, let laterSince) = network.current else {
      Issue.record("expected still offline, got \(network.current)")
      return
    }
    #expect(laterReason.contains("HTTP 502"), "the reason is the latest one")
    #expect(laterSince == wentOffline, "offline since the first failure")

    harness.server.fail(with: nil)
    _ = try await harness.service.page(BookQuery())
    #expect(network.current == .online)

    network.simulateOffline(true)
    #expect(network.current == .simulatedOffline)
    #expect(network.current.isOffline)
    network.simulateOffline(false)
    #expect(network.current == .unknown)
  }

  @Test func theRequestLogNamesWhereEachAnswerCameFrom() async throws {
    let harness = try CatalogHarness(localBooks: CatalogFixtures.made(3))
    _ = try await harness.service.page(BookQuery())
    harness.server.fail(with: .unreachable)
    _ = try await harness.service.page(BookQuery())
    _ = try await harness.service.page(BookQuery(search: "made"))

    let entries = harness.service.log.recent(10).reversed().map { $0 }
    #expect(entries.map(\.origin) == [.network, .network, .cache, .network, .local])
    #expect(entries[0].url == "http://test.local/books/")
    #expect(entries[0].status == 200)
    #expect(entries[0].error == nil)
    #expect(entries[1].status == nil)
    #expect(entries[1].error?.contains("cannot reach") == true)
    #expect(entries[2].url == "cache: ")
    #expect(entries[4].url == "local: search=made")
    #expect(entries[4].error == nil)
    #expect(entries.allSatisfy { $0.date == harness.clock.now })
    // The client's requests say their method; an answer found without one has none.
    #expect(entries.map(\.method) == ["GET", "GET", nil, "GET", nil])
  }

  /// A request sent by another pipeline (progress sync's `PUT`) joins the recent requests with
  /// its own method, as the status screen lists them.
  @Test func aRequestOfAnotherPipelineIsListedWithItsMethod() async throws {
    let harness = try CatalogHarness()
    _ = try await harness.service.page(BookQuery())
    let url = try #require(URL(string: "https://sync.example.org/syncs/progress"))
    harness.service.recordRequest(
      RequestEvent(
        method: "PUT", url: url, status: 200, error: nil, duration: .milliseconds(5), attempt: 1))
    let entries = harness.service.recentRequests()
    #expect(entries.map(\.method) == ["PUT", "GET"])
    #expect(entries.first?.url == "https://sync.example.org/syncs/progress")
    #expect(entries.first?.status == 200)
    #expect(entries.first?.origin == .network)
  }
}

@Suite("CatalogService: books, refresh, probe")
struct CatalogServiceBookTests {
  @Test func aBookComesLiveWhenTheServerAnswers() async throws {
    let harness = try CatalogHarness()
    let loaded = try await harness.service.book(id: 2701)
    #expect(loaded.book.title == "Moby Dick; Or, The Whale")
    #expect(loaded.provenance == .network)
    #expect(harness.server.requests.map(\.absoluteString) == ["http://test.local/books/2701/"])
  }

  @Test func offlineABookFallsBackToTheFavouriteSnapshotThenTheLocalCatalogue() async throws {
    let (harness, local, frankenstein, addedAt) = try CatalogHarness.unreachableWithFallbacks()

    let saved = try await harness.service.book(id: frankenstein.id)
    #expect(saved.book == frankenstein)
    #expect(saved.source == .favorite(savedAt: addedAt))
    #expect(saved.provenance.fallbackReason?.hasPrefix("cannot reach") == true, "\(saved)")

    let fromLocal = try await harness.service.book(id: local[1].id)
    #expect(fromLocal.book.title == local[1].title)
    #expect(fromLocal.source == .local(name: CatalogHarness.localName))

    let nowhere = await catalogError { try await harness.service.book(id: 1342) }
    #expect(nowhere == .notAvailableOffline("book 1342"))
    #expect(
      nowhere?.description == "offline, and book 1342 is not in the cache or the local catalogue")
  }

  @Test func offlineAPageTheLocalCatalogueLacksIsNotAvailableOffline() async throws {
    let harness = try CatalogHarness(localBooks: CatalogFixtures.made(3))
    harness.server.fail(with: .unreachable)
    let error = await catalogError { try await harness.service.page(BookQuery(page: 3)) }
    #expect(error == .notAvailableOffline("this page"))
  }

  @Test func inLocalOnlyModeTheLocalCataloguesNotFoundStands() async throws {
    let harness = try CatalogHarness(localBooks: CatalogFixtures.made(3), mode: .localOnly)
    let error = await catalogError { try await harness.service.book(id: 1342) }
    // Named as the local catalogue's miss (issue 25), not as a pretend server's HTTP 404.
    #expect(error == .notInLocalCatalogue(1342))
    #expect(error?.description == "book 1342 is not in the local catalogue")
    let page = await catalogError { try await harness.service.page(BookQuery(page: 3)) }
    // The store's own answer (typed, issue 25), not a pretend server's "Invalid page." 404.
    #expect(page == .pageOutOfRange(page: 3, pageCount: 1))
  }

  @Test func offlineWithoutAnyCopyTheServerErrorPassesThrough() async throws {
    let harness = try CatalogHarness()
    harness.server.fail(with: .unreachable)
    let error = await catalogError { try await harness.service.book(id: 84) }
    guard case .server(.unreachable) = error else {
      Issue.record("expected .server(.unreachable), got \(String(describing: error))")
      return
    }
    harness.service.network.simulateOffline(true)
    let simulated = await catalogError { try await harness.service.book(id: 84) }
    #expect(simulated == .notAvailableOffline("book 84"))
  }

  @Test func aMissingBookIsNotAFallbackCase() async throws {
    let harness = try CatalogHarness()
    let frankenstein = try #require(try CatalogFixtures.books("e4-2025-page1").first)
    _ = try harness.favorites.add(frankenstein)
    harness.server.fail(with: nil)
    let error = await catalogError { try await harness.service.book(id: 999_999_999) }
    guard case .server(.http(404, let detail, _)) = error else {
      Issue.record("expected .server(.http(404)), got \(String(describing: error))")
      return
    }
    #expect(detail == "No Book matches the given query.")
  }

  @Test func refreshFetchesFortyFavouritesInTwoBatchesOfAtMostThirtyTwo() async throws {
    let real = try CatalogFixtures.books("e4-2025-page1") + CatalogFixtures.books("en__page_87")
    let favorites = Array(real.prefix(40))
    let harness = try CatalogHarness(books: real)
    #expect(try harness.favorites.add(favorites, at: CatalogFixtures.date(-100)) == 40)

    let result = try await harness.service.refreshFavorites()
    #expect(result.updated == 40)
    #expect(result.missing == 0)
    let batches = harness.server.idBatches
    #expect(batches.count == 2)
    #expect(batches.allSatisfy { $0.count <= 32 })
    #expect(batches.map(\.count) == [32, 8])
    #expect(batches.flatMap { $0 } == favorites.map(\.id).sorted())
    #expect(try harness.favorites.lastRefreshed() == harness.clock.now)
    let stored = try harness.favorites.favorites()
    #expect(stored.allSatisfy { $0.refreshedAt == harness.clock.now && !$0.missingOnServer })
    #expect(harness.service.network.current == .online)
  }

  @Test func refreshUpdatesSnapshotsAndKeepsAndMarksBooksTheServerDropped() async throws {
    let old = CatalogFixtures.made(5)
    let harness = try CatalogHarness(
      books: old.prefix(3).map { Book(id: $0.id, title: $0.title + " (revised)") })
    _ = try harness.favorites.add(old, at: CatalogFixtures.date(-100))

    let result = try await harness.service.refreshFavorites()
    #expect(result.updated == 3)
    #expect(result.missing == 2)
    let stored = try harness.favorites.favorites(order: .title)
    #expect(stored.count == 5, "missing books are kept")
    for favorite in stored {
      let dropped = favorite.id == old[3].id || favorite.id == old[4].id
      #expect(favorite.missingOnServer == dropped)
      #expect(favorite.book.title.hasSuffix("(revised)") == !dropped)
    }
  }

  @Test func aRefreshFailingPartWayWritesNothing() async throws {
    let real = try CatalogFixtures.books("e4-2025-page1") + CatalogFixtures.books("en__page_87")
    let favorites = Array(real.prefix(40))
    let harness = try CatalogHarness(
      books: real.map { Book(id: $0.id, title: "changed on the server") })
    _ = try harness.favorites.add(favorites, at: CatalogFixtures.date(-100))
    let before = try harness.favorites.favorites()
    harness.server.fail { _, number in number == 1 ? .unreachable : nil }

    let error = await catalogError { try await harness.service.refreshFavorites() }
    guard case .server(.unreachable) = error else {
      Issue.record("expected .server(.unreachable), got \(String(describing: error))")
      return
    }
    #expect(harness.server.idBatches.count == 2)
    #expect(try harness.favorites.favorites() == before)
    #expect(try harness.favorites.lastRefreshed() == nil)
    #expect(harness.service.network.current.isOffline)
  }

  @Test func refreshingNoFavouritesSendsNothingAndClaimsNothing() async throws {
    let harness = try CatalogHarness()
    let result = try await harness.service.refreshFavorites()
    #expect(result.updated == 0)
    #expect(result.missing == 0)
    #expect(harness.server.requests.isEmpty)
    #expect(harness.service.network.current == .unknown, "no request, so nothing is known")
  }

  @Test func refreshInLocalOnlyModeIsNotAvailable() async throws {
    let harness = try CatalogHarness(localBooks: CatalogFixtures.made(2), mode: .localOnly)
    _ = try harness.favorites.add(CatalogFixtures.made(2))
    let error = await catalogError { try await harness.service.refreshFavorites() }
    #expect(error == .notAvailableOffline("a refresh from the server"))
    #expect(harness.server.requests.isEmpty)
  }

  @Test func probeSendsOneSmallRequestAndUpdatesTheNetworkState() async throws {
    let harness = try CatalogHarness()
    #expect(await harness.service.probe())
    #expect(harness.server.requests.map(\.query) == ["ids=1"])
    #expect(harness.service.network.current == .online)

    harness.server.fail(with: .status(503))
    #expect(await harness.service.probe() == false)
    #expect(harness.server.requests.count == 2, "a probe never retries")
    #expect(harness.service.network.current.isOffline)
  }

  @Test func probeInLocalOnlyModeSendsNothing() async throws {
    let harness = try CatalogHarness(localBooks: [], mode: .localOnly)
    #expect(await harness.service.probe() == false)
    #expect(harness.server.requests.isEmpty)
    #expect(harness.service.network.current == .localOnly)
  }
}

@Suite("RequestLog and CatalogError")
struct RequestLogTests {
  func entry(_ number: Int) -> RequestLog.Entry {
    RequestLog.Entry(
      date: CatalogFixtures.date(Double(number)), url: "u\(number)", status: 200, error: nil,
      duration: .zero, origin: .network)
  }

  @Test func keepsTheNewestEntriesUpToItsCapacityNewestFirst() {
    let log = RequestLog(capacity: 3)
    for number in 1...5 { log.record(entry(number)) }
    #expect(log.recent(10).map(\.url) == ["u5", "u4", "u3"])
    #expect(log.recent(2).map(\.url) == ["u5", "u4"])
    #expect(RequestLog(capacity: 0).capacity == 1)
  }

  @Test func aNegativeLimitGivesNothingRatherThanATrap() {
    let log = RequestLog()
    log.record(entry(1))
    #expect(log.recent(-1).isEmpty)
    #expect(log.recent(0).isEmpty)
  }

  @Test func errorsReadAsOneClearLine() {
    #expect(
      CatalogError.pageOutOfRange(page: 5, pageCount: 3).description
        == "page 5 is out of range (1–3)")
    #expect(
      CatalogError.pageOutOfRange(page: 2, pageCount: 1).description
        == "page 2 is out of range (there is only page 1)")
    #expect(
      CatalogError.noSuchRow(row: 4, rowCount: 0).description
        == "there is no row 4: the list is empty")
    #expect(
      CatalogError.noSuchRow(row: 40, rowCount: 32).description
        == "there is no row 40 (rows are 1–32)")
    let url = URL(string: "http://test.local/books/")!
    #expect(CatalogError(GutendexError.cancelled(url: url)) == .cancelled)
    #expect(CatalogError(CancellationError()) == .cancelled)
    #expect(
      CatalogError(GutendexError.serverError(status: 503, url: url))
        == .server(.serverError(status: 503, url: url)))
  }
}
