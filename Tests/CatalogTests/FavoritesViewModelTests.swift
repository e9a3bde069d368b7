import Foundation
import Gutendex
import Testing

@testable import Catalog

@MainActor
@Suite("FavoritesViewModel")
struct FavoritesViewModelTests {
  let harness: CatalogHarness
  let books: [Book]

  init() throws {
    harness = try CatalogHarness()
    books = try CatalogFixtures.catalogue()
  }

  /// Adds `books` one second apart, the first oldest.
  func add(_ books: [Book]) throws {
    for (index, book) in books.enumerated() {
      _ = try harness.favorites.add(book, at: CatalogFixtures.date(Double(index)))
    }
  }

  @Test func reloadShowsTheFavouritesNewestFirst() async throws {
    try add(Array(books.prefix(3)))
    let model = FavoritesViewModel(service: harness.service)
    #expect(model.current.favorites.isEmpty)
    #expect(model.current.load == .idle)
    await model.reload()
    #expect(model.current.favorites.map(\.id) == books.prefix(3).reversed().map(\.id))
    #expect(model.current.count == 3)
    #expect(model.current.page == 1)
    #expect(model.current.pageCount == 1)
    #expect(model.current.lastRefreshed == nil)
    #expect(model.current.load.error == nil)
    #expect(model.current.favorites.last?.addedAt == CatalogFixtures.date(0))
  }

  @Test func theOrderCanBeByTitleOrAuthor() async throws {
    let picked = [
      Book(id: 1, title: "Zebra Tales", authors: [Person(name: "Adams, Ann")]),
      Book(id: 2, title: "apple pie", authors: [Person(name: "Young, Yves")]),
      Book(id: 3, title: "Mango", authors: [Person(name: "Miller, Max")]),
    ]
    try add(picked)
    let model = FavoritesViewModel(service: harness.service, order: .title)
    await model.reload()
    #expect(model.current.favorites.map(\.id) == [2, 3, 1])
    await model.setOrder(.author)
    #expect(model.current.order == .author)
    #expect(model.current.favorites.map(\.id) == [1, 3, 2])
    await model.setOrder(.newest)
    #expect(model.current.favorites.map(\.id) == [3, 2, 1])
  }

  @Test func fortyFavouritesMakeTwoPages() async throws {
    try add(Array(books.prefix(40)))
    let model = FavoritesViewModel(service: harness.service)
    await model.reload()
    #expect(model.current.count == 40)
    #expect(model.current.pageCount == 2)
    #expect(model.current.favorites.count == 32)
    #expect(model.current.favorites.first?.id == books[39].id)
    await model.goTo(page: 2)
    #expect(model.current.page == 2)
    #expect(model.current.favorites.map(\.id) == books.prefix(8).reversed().map(\.id))

    let shown = model.current.favorites
    await model.goTo(page: 3)
    #expect(model.current.load == .failed(.pageOutOfRange(page: 3, pageCount: 2)))
    #expect(model.current.favorites == shown)
    await model.goTo(page: 0)
    #expect(model.current.load == .failed(.pageOutOfRange(page: 0, pageCount: 2)))

    await model.setOrder(.title)
    #expect(model.current.page == 1, "a new order starts on the first page")
  }

  @Test func removingRowsRemovesThoseBooksDurably() async throws {
    try add(Array(books.prefix(5)))
    let model = FavoritesViewModel(service: harness.service)
    await model.reload()
    let shown = model.current.favorites
    await model.remove(rows: [1, 3, 1])
    #expect(model.current.notice == "Removed 2 favourites.")
    #expect(model.current.count == 3)
    #expect(model.current.favorites.map(\.id) == [shown[1].id, shown[3].id, shown[4].id])
    let other = try harness.reopenFavorites()
    #expect(try other.isFavorite(shown[0].id) == false)
    #expect(try other.isFavorite(shown[2].id) == false)
    #expect(try other.count() == 3)

    await model.remove(rows: [2])
    #expect(model.current.notice == "Removed 1 favourite.")
    // Opening the list again is not news: the old notice goes.
    await model.reload()
    #expect(model.current.notice == nil)
    #expect(model.current.count == 2)
  }

  @Test(arguments: [[0], [4], [1, 9], [-2]])
  func aBadRowRemovesNothing(rows: [Int]) async throws {
    try add(Array(books.prefix(3)))
    let model = FavoritesViewModel(service: harness.service)
    await model.reload()
    let shown = model.current.favorites
    await model.remove(rows: rows)
    let bad = try #require(rows.first { !(1...3).contains($0) })
    #expect(model.current.load == .failed(.noSuchRow(row: bad, rowCount: 3)))
    #expect(model.current.favorites == shown)
    #expect(try harness.favorites.count() == 3)
    #expect(model.current.notice == nil)
  }

  @Test func noRowsIsAnError() async throws {
    try add(Array(books.prefix(2)))
    let model = FavoritesViewModel(service: harness.service)
    await model.reload()
    await model.remove(rows: [])
    guard case .failed(.invalidInput) = model.current.load else {
      Issue.record("expected invalid input, got \(model.current.load)")
      return
    }
    #expect(try harness.favorites.count() == 2)
  }

  @Test func removingTheLastOneOnTheLastPageGoesBackAPage() async throws {
    try add(Array(books.prefix(33)))
    let model = FavoritesViewModel(service: harness.service)
    await model.reload()
    await model.goTo(page: 2)
    #expect(model.current.favorites.count == 1)
    await model.remove(rows: [1])
    #expect(model.current.page == 1)
    #expect(model.current.pageCount == 1)
    #expect(model.current.favorites.count == 32)
  }

  @Test func exportWritesAFileThatImportsIntoAnotherStore() async throws {
    try add(Array(books.prefix(3)))
    let model = FavoritesViewModel(service: harness.service)
    let file = harness.directory.appendingPathComponent("export/favourites.json")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try await model.export(to: file)
    #expect(model.current.notice == "Exported 3 favourites to \(file.path).")
    let data = try Data(contentsOf: file)
    #expect(try await model.exportDocument().count > 0)

    let elsewhere = try CatalogHarness()
    let importer = FavoritesViewModel(service: elsewhere.service)
    let summary = try await importer.importDocument(data, source: file.path)
    #expect(summary == ImportSummary(added: 3))
    #expect(
      importer.current.notice == "Imported from \(file.path): 3 added, 0 updated, 0 unchanged.")
    #expect(importer.current.count == 3)
    #expect(Set(importer.current.favorites.map(\.id)) == Set(books.prefix(3).map(\.id)))
    #expect(
      importer.current.favorites.first { $0.id == books[0].id }?.addedAt == CatalogFixtures.date(0))

    let again = try await importer.importDocument(data, source: "again")
    #expect(again == ImportSummary(unchanged: 3))
    #expect(importer.current.count == 3)
  }

  @Test func aBadImportChangesNothingAndSaysWhy() async throws {
    try add(Array(books.prefix(2)))
    let model = FavoritesViewModel(service: harness.service)
    await model.reload()
    let error = await catalogError {
      try await model.importDocument(
        Data(#"[{"id": 1}, {"title": "no id"}]"#.utf8), source: "bad.json")
    }
    guard case .store(let storeError) = error else {
      Issue.record("expected a store error, got \(String(describing: error))")
      return
    }
    #expect(storeError.description.contains("bad.json"))
    #expect(model.current.load == .failed(.store(storeError)))
    #expect(try harness.favorites.count() == 2)
  }

  @Test func exportToAnUnwritablePlaceFailsAndSaysSo() async throws {
    try add(Array(books.prefix(1)))
    let model = FavoritesViewModel(service: harness.service)
    let file = harness.directory.appendingPathComponent("no-such-dir/deeper/favourites.json")
    let error = await catalogError { try await model.export(to: file) }
    guard case .store = error else {
      Issue.record("expected a store error, got \(String(describing: error))")
      return
    }
    #expect(model.current.load.error == error)
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func refreshUpdatesTheListAndReportsMissingBooks() async throws {
    let kept = Book(id: 777_777, title: "Withdrawn Book")
    try add(Array(books.prefix(2)) + [kept])
    let model = FavoritesViewModel(service: harness.service)
    await model.reload()
    let seen = Delivered<LoadState>()
    let token = model.observe { seen.append($0.load) }
    await model.refresh()
    #expect(seen.values.contains(.loading))
    #expect(model.current.notice == "Refreshed 2 favourites; 1 no longer on the server (kept).")
    #expect(model.current.lastRefreshed == harness.clock.now)
    #expect(model.current.load.error == nil)
    #expect(model.current.count == 3)
    #expect(model.current.favorites.first { $0.id == kept.id }?.missingOnServer == true)
    #expect(harness.server.idBatches.count == 1)
    withExtendedLifetime(token) {}
  }

  @Test func aFailedRefreshKeepsTheListAndSaysWhy() async throws {
    try add(Array(books.prefix(3)))
    let model = FavoritesViewModel(service: harness.service)
    await model.reload()
    let before = model.current.favorites
    harness.server.fail(with: .unreachable)
    await model.refresh()
    guard case .failed(.server(.unreachable)) = model.current.load else {
      Issue.record("expected an unreachable failure, got \(model.current.load)")
      return
    }
    #expect(model.current.favorites == before)
    #expect(model.current.notice == nil)
    #expect(model.current.lastRefreshed == nil)
  }
}
