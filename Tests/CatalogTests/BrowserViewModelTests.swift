import Foundation
import Gutendex
import TestSupport
import Testing

@testable import Catalog

/// Page 2 of `/books/` without a search: the page the browser prefetches after page 1.
let plainPageTwo: @Sendable (URL) -> Bool = { url in
  GutendexDouble.page(of: url) == 2 && GutendexDouble.parameter("search", of: url) == nil
}

@MainActor
@Suite("BrowserViewModel: loading and navigation")
struct BrowserViewModelTests {
  let harness: CatalogHarness
  let catalogue: [Book]

  init() throws {
    harness = try CatalogHarness()
    catalogue = try CatalogFixtures.catalogue()
  }

  func model(prefetch: Bool = false) -> BrowserViewModel {
    BrowserViewModel(service: harness.service, prefetchEnabled: prefetch)
  }

  func ids(_ range: Range<Int>) -> [Int] {
    catalogue[range].map(\.id)
  }

  @Test func loadGoesFromIdleThroughLoadingToLoaded() async {
    let model = model()
    let seen = Delivered<LoadState>()
    let token = model.observe { seen.append($0.load) }
    #expect(model.current.items.isEmpty)
    #expect(model.current.pageCount == nil)

    await model.load()
    #expect(seen.values == [.idle, .loading, .loaded(.network)])
    #expect(model.current.items.map(\.id) == ids(0..<32))
    #expect(model.current.items.first?.book.title == "Frankenstein; Or, The Modern Prometheus")
    #expect(model.current.totalCount == 86)
    #expect(model.current.pageCount == 3)
    #expect(model.current.page == 1)
    #expect(model.current.network == .online)
    #expect(harness.server.pagesRequested == [1])
    withExtendedLifetime(token) {}
  }

  @Test func nextPreviousAndGoToMoveThroughThePages() async {
    let model = model()
    await model.load()
    await model.next()
    #expect(model.current.page == 2)
    #expect(model.current.items.map(\.id) == ids(32..<64))
    await model.goTo(page: 3)
    #expect(model.current.page == 3)
    #expect(model.current.items.map(\.id) == ids(64..<86))
    #expect(model.current.load == .loaded(.network))
    await model.previous()
    #expect(model.current.page == 2)
    #expect(model.current.items.map(\.id) == ids(32..<64))
    #expect(harness.server.pagesRequested == [1, 2, 3], "page 2 came back from this session")
  }

  @Test func nextOnTheLastPageFailsWithoutARequest() async {
    let model = model()
    await model.goTo(page: 3)
    let items = model.current.items
    await model.next()
    #expect(model.current.load == .failed(.pageOutOfRange(page: 4, pageCount: 3)))
    #expect(model.current.items == items)
    #expect(model.current.page == 3)
    #expect(harness.server.pagesRequested == [3])
  }

  @Test(arguments: [0, 4, -1, 1000])
  func goToOutOfRangeFailsWithoutARequest(page: Int) async {
    let model = model()
    await model.load()
    let items = model.current.items
    await model.goTo(page: page)
    #expect(model.current.load == .failed(.pageOutOfRange(page: page, pageCount: 3)))
    #expect(model.current.items == items)
    #expect(model.current.page == 1)
    #expect(harness.server.pagesRequested == [1])
  }

  @Test func previousOnTheFirstPageFailsWithoutARequest() async {
    let model = model()
    await model.load()
    let items = model.current.items
    await model.previous()
    #expect(model.current.load == .failed(.invalidInput("already on the first page")))
    #expect(model.current.items == items)
    #expect(harness.server.pagesRequested == [1])
    model.dismissError()
    #expect(model.current.load == .loaded(.network))
  }

  @Test func nextBeforeAnyPageLoadsTheFirst() async {
    let model = model()
    await model.next()
    #expect(model.current.page == 1)
    #expect(model.current.items.count == 32)
    #expect(harness.server.pagesRequested == [1])
  }

  @Test func setQueryStartsTheNewQueryOnItsFirstPage() async {
    let model = model()
    await model.load()
    await model.next()
    await model.setQuery(BookQuery(search: "the"))
    #expect(model.current.page == 1)
    #expect(model.current.query.search == "the")
    // Gutendex's search: the word in the title or an author's name, case-insensitive.
    let expected = catalogue.filter { book in
      ([book.title] + book.authors.map(\.name)).contains { $0.lowercased().contains("the") }
    }
    #expect(model.current.totalCount == expected.count)
    #expect(model.current.items.map(\.id) == Array(expected.prefix(32)).map(\.id))
    #expect(harness.server.requests.last?.query == "search=the")
  }

  @Test func refreshAsksTheServerAgainInsteadOfTheSessionsPages() async {
    let model = model()
    await model.load()
    await model.next()
    await model.previous()
    #expect(harness.server.pagesRequested == [1, 2])
    await model.refresh()
    #expect(harness.server.pagesRequested == [1, 2, 1])
    #expect(model.current.page == 1)
    await model.next()
    #expect(harness.server.pagesRequested == [1, 2, 1, 2], "refresh forgot page 2 as well")
  }

  @Test func aFailedActionKeepsThePageAndSaysWhy() async {
    let model = model()
    await model.load()
    let shown = model.current.items
    harness.server.fail(with: .invalidPage)
    await model.next()
    guard case .failed(.server(.http(404, "Invalid page.", _))) = model.current.load else {
      Issue.record("expected a 404 failure, got \(model.current.load)")
      return
    }
    #expect(model.current.items == shown)
    #expect(model.current.page == 1)
    model.dismissError()
    #expect(model.current.load == .loaded(.network))
    harness.server.fail(with: nil)
    await model.next()
    #expect(model.current.page == 2)
  }

  @Test func anOfflineFallbackShowsInTheLoadState() async throws {
    let model = model()
    let fetchedAt = harness.clock.now
    await model.load()
    harness.clock.advance(by: 600)
    harness.server.fail(with: .unreachable)
    await model.refresh()
    guard case .loaded(let provenance) = model.current.load,
      case .cache(let date) = provenance.source,
      let reason = provenance.fallbackReason
    else {
      Issue.record("expected an offline cache state, got \(model.current.load)")
      return
    }
    #expect(date == fetchedAt)
    #expect(reason.contains("cannot reach test.local"))
    #expect(model.current.network.isOffline)
    #expect(model.current.items.map(\.id) == ids(0..<32))

    // Pages shown from a fallback are not remembered: once the server is back, they are
    // asked for again.
    harness.server.fail(with: nil)
    await model.next()
    await model.previous()
    #expect(harness.server.pagesRequested.suffix(2) == [2, 1])
    #expect(model.current.load == .loaded(.network))
    #expect(model.current.network == .online)
  }

  @Test func cancellingANextInFlightRestoresThePreviousState() async throws {
    let model = model()
    await model.load()
    let before = model.current
    harness.server.hold(where: plainPageTwo)
    let next = Task { await model.next() }
    try await harness.server.waitForPage(2)
    #expect(model.current.load == .loading)
    next.cancel()
    try await Awaiting.value("the cancelled next() to end") { await next.value }
    #expect(model.current.load == .loaded(.network))
    #expect(model.current.items == before.items)
    #expect(model.current.page == 1)
    _ = try await harness.server.waitForCancellation(where: plainPageTwo)
  }
}

@MainActor
@Suite("BrowserViewModel: prefetch")
struct BrowserPrefetchTests {
  let harness: CatalogHarness

  init() throws {
    harness = try CatalogHarness()
  }

  @Test func theNextPageIsFetchedInTheBackgroundAndNextUsesIt() async throws {
    let model = BrowserViewModel(service: harness.service)
    harness.server.hold(where: plainPageTwo)
    await model.load()
    #expect(model.isPrefetching)
    // The background request arrives before next() is called.
    try await harness.server.waitForPage(2)
    #expect(harness.server.pagesRequested == [1, 2])
    harness.server.release()
    try await Awaiting.value("the released prefetch to finish") { await model.waitForPrefetch() }

    await model.next()
    #expect(model.current.page == 2)
    #expect(model.current.load == .loaded(.network))
    #expect(model.current.items.count == 32)
    await model.waitForPrefetch()
    #expect(harness.server.pagesRequested == [1, 2, 3], "page 2 was asked for once")
  }

  @Test func nextWhileThePrefetchIsInFlightWaitsForItInsteadOfAskingAgain() async throws {
    let model = BrowserViewModel(service: harness.service)
    harness.server.hold(where: plainPageTwo)
    await model.load()
    try await harness.server.waitForPage(2)
    let next = Task { await model.next() }
    try await waitUntil(model.observe) { $0.load == .loading }
    harness.server.release()
    try await Awaiting.value("next() to end once the prefetch is answered") { await next.value }
    #expect(model.current.page == 2)
    #expect(harness.server.pagesRequested.filter { $0 == 2 }.count == 1)
  }

  @Test func theLastPageHasNothingToPrefetch() async {
    let model = BrowserViewModel(service: harness.service)
    await model.goTo(page: 3)
    #expect(!model.isPrefetching)
    #expect(harness.server.pagesRequested == [3])
  }

  @Test func theDelayIsHonouredThroughTheInjectedSleep() async throws {
    let gate = SleepGate()
    let model = BrowserViewModel(
      service: harness.service, prefetchDelay: .seconds(2), sleep: gate.sleep)
    await model.load()
    try await gate.waitForSleeps(1)
    #expect(gate.requested == [.seconds(2)])
    #expect(harness.server.pagesRequested == [1], "nothing is fetched before the delay")
    gate.open()
    try await Awaiting.value("the prefetch to finish once its delay is over") {
      await model.waitForPrefetch()
    }
    #expect(harness.server.pagesRequested == [1, 2])
  }

  @Test func nextDuringThePrefetchDelayFetchesAtOnceInsteadOfWaitingOutTheDelay() async throws {
    let gate = SleepGate()
    let model = BrowserViewModel(
      service: harness.service, prefetchDelay: .seconds(30), sleep: gate.sleep)
    await model.load()
    try await gate.waitForSleeps(1)
    // The gate stays shut: if next() waited for the delayed prefetch it would never return.
    try await Awaiting.value("next() to return while the prefetch delay lasts") {
      await model.next()
    }
    #expect(model.current.page == 2)
    #expect(model.current.load == .loaded(.network))
    #expect(harness.server.pagesRequested.prefix(2) == [1, 2])
    #expect(harness.server.pagesRequested.filter { $0 == 2 }.count == 1)
  }

  @Test func noBackgroundRequestWhenPrefetchIsOff() async {
    let model = BrowserViewModel(service: harness.service, prefetchEnabled: false)
    await model.load()
    #expect(!model.isPrefetching)
    await model.waitForPrefetch()
    #expect(harness.server.pagesRequested == [1])
  }

  @Test func backNavigationIsServedFromThePagesSeenWithoutARequest() async {
    let model = BrowserViewModel(service: harness.service)
    await model.load()
    await model.waitForPrefetch()
    await model.next()
    await model.waitForPrefetch()
    let requests = harness.server.requests.count
    let seen = Delivered<LoadState>()
    let token = model.observe { seen.append($0.load) }
    await model.previous()
    #expect(model.current.page == 1)
    #expect(model.current.load == .loaded(.network))
    #expect(harness.server.requests.count == requests)
    #expect(!seen.values.contains(.loading), "an instant page never shows as loading")
    withExtendedLifetime(token) {}
  }

  @Test func setQueryCancelsTheStalePrefetch() async throws {
    let model = BrowserViewModel(service: harness.service)
    harness.server.hold(where: plainPageTwo)
    await model.load()
    let stale = try await harness.server.waitForRequest(where: plainPageTwo)
    await model.setQuery(BookQuery(search: "the"))
    let cancelled = try await harness.server.waitForCancellation(where: plainPageTwo)
    #expect(cancelled == stale)
    #expect(model.current.query.search == "the")
    #expect(model.current.page == 1)
    await model.waitForPrefetch()
    let searched = harness.server.requests.filter {
      GutendexDouble.parameter("search", of: $0) == "the"
    }
    #expect(searched.map { GutendexDouble.page(of: $0) } == [1, 2])
  }

  @Test func cancellingANextThatWaitsForThePrefetchRestoresThePreviousState() async throws {
    let model = BrowserViewModel(service: harness.service)
    harness.server.hold(where: plainPageTwo)
    await model.load()
    let before = model.current
    try await harness.server.waitForPage(2)
    let next = Task { await model.next() }
    try await waitUntil(model.observe) { $0.load == .loading }
    next.cancel()
    try await Awaiting.value("the cancelled next() to end") { await next.value }
    #expect(model.current.load == .loaded(.network))
    #expect(model.current.items == before.items)
    #expect(model.current.page == 1)
    _ = try await harness.server.waitForCancellation(where: plainPageTwo)
  }

  @Test func droppingTheViewModelCancelsItsPrefetch() async throws {
    harness.server.hold(where: plainPageTwo)
    weak var weakModel: BrowserViewModel?
    do {
      let model = BrowserViewModel(service: harness.service)
      weakModel = model
      await model.load()
      try await harness.server.waitForPage(2)
    }
    #expect(weakModel == nil)
    _ = try await harness.server.waitForCancellation(where: plainPageTwo)
  }
}

@MainActor
@Suite("BrowserViewModel: favourites")
struct BrowserFavoritesTests {
  let harness: CatalogHarness
  let model: BrowserViewModel

  init() async throws {
    harness = try CatalogHarness()
    model = BrowserViewModel(service: harness.service, prefetchEnabled: false)
    await model.load()
  }

  @Test func togglingRowsIsDurableAndShowsOnTheRows() async throws {
    let items = model.current.items
    await model.toggleFavorites(rows: [1, 3])
    #expect(model.current.items.map(\.isFavorite).prefix(4) == [true, false, true, false])
    #expect(model.current.load == .loaded(.network))
    let other = try harness.reopenFavorites()
    #expect(try other.favoriteIDs(among: items.map(\.id)) == [items[0].id, items[2].id])
    #expect(try other.favorite(id: items[2].id)?.book == items[2].book)

    await model.toggleFavorites(rows: [1])
    #expect(model.current.items[0].isFavorite == false)
    #expect(try other.favoriteIDs(among: items.map(\.id)) == [items[2].id])
  }

  @Test(arguments: [[2, 33], [0], [-1, 2], [33, 34]])
  func anOutOfRangeRowTogglesNothing(rows: [Int]) async throws {
    let items = model.current.items
    await model.toggleFavorites(rows: rows)
    let bad = try #require(rows.first { !(1...32).contains($0) })
    #expect(model.current.load == .failed(.noSuchRow(row: bad, rowCount: 32)))
    #expect(model.current.items == items)
    #expect(try harness.favorites.count() == 0)
    model.dismissError()
    #expect(model.current.load == .loaded(.network))
  }

  @Test func noRowsIsAnError() async throws {
    await model.toggleFavorites(rows: [])
    guard case .failed(.invalidInput) = model.current.load else {
      Issue.record("expected invalid input, got \(model.current.load)")
      return
    }
    #expect(try harness.favorites.count() == 0)
  }

  @Test func aRowGivenTwiceIsToggledOnce() async throws {
    await model.toggleFavorites(rows: [2, 5, 2])
    #expect(model.current.items[1].isFavorite)
    #expect(model.current.items[4].isFavorite)
    #expect(try harness.favorites.count() == 2)
  }

  @Test func aSuccessfulToggleClearsAnEarlierError() async {
    await model.toggleFavorites(rows: [99])
    #expect(model.current.load.error != nil)
    await model.toggleFavorites(rows: [1])
    #expect(model.current.load == .loaded(.network))
    #expect(model.current.items[0].isFavorite)
  }

  /// Another connection to the file (to SQLite, the same as another process) adds a
  /// favourite: the store's poll announces it and the row's flag follows, with no action.
  @Test func flagsFollowChangesMadeElsewhere() async throws {
    let book = model.current.items[4].book
    #expect(model.current.items[4].isFavorite == false)
    _ = try harness.reopenFavorites().add(book)
    try await waitUntil(model.observe) { $0.items[4].isFavorite }
    #expect(model.current.items[4].isFavorite)
    _ = try harness.reopenFavorites().remove(id: book.id)
    try await waitUntil(model.observe) { !$0.items[4].isFavorite }
    #expect(model.current.items.filter(\.isFavorite).isEmpty)
  }

  @Test func rowsOnAnEmptyScreenAreNoSuchRow() async throws {
    let empty = BrowserViewModel(service: harness.service, prefetchEnabled: false)
    await empty.toggleFavorites(rows: [1])
    #expect(empty.current.load == .failed(.noSuchRow(row: 1, rowCount: 0)))
    #expect(try harness.favorites.count() == 0)
  }

  @Test func aPageShowsTheFavouritesAlreadySaved() async throws {
    let second = try CatalogFixtures.catalogue()[33]
    _ = try harness.favorites.add(second)
    await model.next()
    #expect(model.current.items.filter(\.isFavorite).map(\.id) == [second.id])
  }
}
