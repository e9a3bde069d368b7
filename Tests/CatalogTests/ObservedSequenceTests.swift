import Foundation
import Gutendex
import Testing

@testable import Catalog

/// The states an observer of the browser receives, in order, for the actions the terminal
/// front performs: what the session draws is exactly this sequence.
@MainActor
@Suite("BrowserViewModel: observed state sequences")
struct ObservedSequenceTests {
  let harness: CatalogHarness
  let catalogue: [Book]

  init() throws {
    harness = try CatalogHarness()
    catalogue = try CatalogFixtures.catalogue()
  }

  /// One state in words: page, search, load, and the favourite rows.
  static func summary(_ state: BrowserViewModel.State) -> String {
    let load: String
    switch state.load {
    case .idle: load = "idle"
    case .loading: load = "loading"
    case .loaded(let provenance):
      load =
        provenance.fallbackReason.map { "offline(\(provenance.source), \($0))" }
        ?? "loaded(\(provenance.source))"
    case .failed(let error): load = "failed(\(error))"
    }
    let favorites = state.items.enumerated().filter(\.element.isFavorite).map { $0.offset + 1 }
    return "p\(state.page) \(state.query.search ?? "-") \(load) fav\(favorites)"
  }

  /// A loaded browser with an observer recording from now on.
  func observed() async -> (BrowserViewModel, Delivered<String>, ObservationToken) {
    let model = BrowserViewModel(service: harness.service, prefetchEnabled: false)
    await model.load()
    let seen = Delivered<String>()
    let token = model.observe { seen.append(Self.summary($0)) }
    return (model, seen, token)
  }

  @Test func nextDeliversLoadingThenTheNewPage() async {
    let (model, seen, token) = await observed()
    await model.next()
    #expect(
      seen.values == [
        "p1 - loaded(network) fav[]", "p1 - loading fav[]", "p2 - loaded(network) fav[]",
      ])
    #expect(model.current.items.map(\.id) == catalogue[32..<64].map(\.id))
    token.cancel()
  }

  @Test func searchDeliversLoadingThenTheFirstPageOfTheNewQuery() async {
    let (model, seen, token) = await observed()
    await model.next()
    await model.setQuery(BookQuery(search: "dickens"))
    #expect(
      seen.values == [
        "p1 - loaded(network) fav[]", "p1 - loading fav[]", "p2 - loaded(network) fav[]",
        "p2 - loading fav[]", "p1 dickens loaded(network) fav[]",
      ])
    token.cancel()
  }

  @Test func toggleDeliversOneStateWithTheNewFlags() async throws {
    let (model, seen, token) = await observed()
    await model.toggleFavorites(rows: [2, 4])
    await model.toggleFavorites(rows: [2])
    #expect(
      seen.values == [
        "p1 - loaded(network) fav[]", "p1 - loaded(network) fav[2, 4]",
        "p1 - loaded(network) fav[4]",
      ])
    #expect(try harness.favorites.favoriteIDs(among: catalogue.map(\.id)) == [catalogue[3].id])
    token.cancel()
  }

  @Test func anErrorIsDeliveredThenDismissedBackToThePageOnScreen() async {
    let (model, seen, token) = await observed()
    await model.goTo(page: 9)
    model.dismissError()
    harness.server.fail(with: .status(503))
    await model.next()
    #expect(
      seen.values == [
        "p1 - loaded(network) fav[]", "p1 - failed(page 9 is out of range (1–3)) fav[]",
        "p1 - loaded(network) fav[]", "p1 - loading fav[]",
        "p1 - failed(server error (HTTP 503) from test.local; try again later) fav[]",
      ])
    token.cancel()
  }

  @Test func aCancelledTokenHearsNothingMore() async {
    let (model, seen, token) = await observed()
    token.cancel()
    await model.next()
    #expect(seen.values == ["p1 - loaded(network) fav[]"])
  }
}
