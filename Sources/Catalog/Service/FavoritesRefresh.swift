import Foundation
import Gutendex

/// Fresh snapshots of every favourite from the server, 32 ids a request.
///
/// Books the server no longer returns are kept and marked missing. Nothing is written unless
/// every batch arrives, so a failure part-way leaves the favourites as they were.
struct FavoritesRefresh: Sendable {
  let service: CatalogService

  /// Refreshes every favourite; how many were updated and how many the server no longer has.
  func run() async throws(CatalogError) -> (updated: Int, missing: Int) {
    let favorites = service.favorites
    let ids = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.favorites(order: .newest).map(\.id).sorted()
    }
    guard service.mode != .localOnly, service.network.current != .simulatedOffline else {
      throw .notAvailableOffline("a refresh from the server")
    }
    var books: [Book] = []
    var missing: [Int] = []
    var start = 0
    while start < ids.count {
      let batch = Array(ids[start..<min(start + BookQuery.pageSize, ids.count)])
      start += batch.count
      do {
        let page = try await service.client.page(BookQuery(ids: batch))
        let returned = Set(page.results.map(\.id))
        books += page.results.filter { batch.contains($0.id) }
        missing += batch.filter { !returned.contains($0) }
      } catch {
        if case .cancelled = error { throw .cancelled }
        if error.isUnavailable {
          service.network.markOffline(error.description, at: service.now())
        }
        throw .server(error)
      }
    }
    // With no favourites nothing was sent, so nothing is known about the server.
    if !ids.isEmpty { service.network.markOnline() }
    SourcePolicy(service: service).upsertSeen(books)
    let refreshedAt = service.now()
    try await StoreWork.run(on: favorites.busyWait) { [books, missing] () throws(StoreError) in
      try favorites.applyRefresh(books: books, missingIDs: missing, at: refreshedAt)
    }
    await service.settleChanges()
    return (books.count, missing.count)
  }
}
