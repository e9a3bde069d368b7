import Foundation
import Gutendex

/// The favourites intents: everything the front may do with the favourites, off the main actor.
extension CatalogService {
  /// Whether book `id` is a favourite.
  public func isFavorite(_ id: Int) async throws(CatalogError) -> Bool {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.isFavorite(id)
    }
  }

  /// The ids among `ids` that are favourites.
  public func favoriteIDs(among ids: [Int]) async throws(CatalogError) -> Set<Int> {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.favoriteIDs(among: ids)
    }
  }

  /// Flips the favourite flag of `book`; returns whether it is a favourite now (durable).
  public func toggleFavorite(_ book: Book) async throws(CatalogError) -> Bool {
    let favorites = self.favorites
    let now = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.toggle(book)
    }
    await settleChanges()
    return now
  }

  /// Flips the favourite flag of each book in turn; returns the ids that are favourites now.
  public func toggleFavorites(_ books: [Book]) async throws(CatalogError) -> Set<Int> {
    let favorites = self.favorites
    let now = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.toggle(books)
    }
    await settleChanges()
    return now
  }

  /// Saves book `id` as a favourite: fetched live, else from a fallback. Returns the book and
  /// whether it was added (false when it already was a favourite).
  public func addFavorite(id: Int) async throws(CatalogError) -> (book: Book, added: Bool) {
    let book = try await book(id: id).book
    let favorites = self.favorites
    let added = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.add(book)
    }
    await settleChanges()
    return (book, added)
  }

  /// Removes the favourites with these ids; returns how many there were.
  public func removeFavorites(ids: [Int]) async throws(CatalogError) -> Int {
    let favorites = self.favorites
    let removed = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.remove(ids: ids)
    }
    await settleChanges()
    return removed
  }

  /// One page of the favourites in `order` (the page clamped to 1...pageCount), with the count
  /// and the last refresh, read in one go.
  public func favoritesPage(order: FavoriteOrder, page: Int, pageSize: Int = BookQuery.pageSize)
    async throws(CatalogError) -> FavoritesPage
  {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      let count = try favorites.count()
      let pageCount = max(1, (count + pageSize - 1) / pageSize)
      let page = min(max(page, 1), pageCount)
      let list = try favorites.favorites(
        order: order, limit: pageSize, offset: (page - 1) * pageSize)
      return FavoritesPage(
        favorites: list, count: count, page: page, lastRefreshed: try favorites.lastRefreshed())
    }
  }

  /// Every favourite in `order`.
  public func allFavorites(order: FavoriteOrder) async throws(CatalogError) -> [Favorite] {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.favorites(order: order)
    }
  }

  /// How many favourites there are and when they were last refreshed from the server.
  public func favoritesSummary() async throws(CatalogError) -> (count: Int, lastRefreshed: Date?) {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      (try favorites.count(), try favorites.lastRefreshed())
    }
  }

  /// The export document (versioned JSON) of every favourite.
  public func exportFavorites() async throws(CatalogError) -> Data {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.exportDocument()
    }
  }

  /// Writes the export document to `file` atomically; returns how many favourites it holds.
  public func exportFavorites(to file: URL) async throws(CatalogError) -> Int {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.export(to: file)
    }
  }

  /// Streams the export document to `write` in pieces of about 64 KiB, each whole UTF-8 (a
  /// piece ends with a favourite); memory stays that of one piece. Returns how many favourites
  /// it holds.
  @discardableResult
  public func exportFavorites(streamingTo write: @escaping @Sendable ([UInt8]) -> Void)
    async throws(CatalogError) -> Int
  {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.writeExport { (piece: [UInt8]) throws(StoreError) in write(piece) }
    }
  }

  /// Calls `body` with the favourites in `order`, a window of 500 at a time, all from one read:
  /// a long list is printed without holding every book.
  public func forEachFavorites(
    order: FavoriteOrder, _ body: @escaping @Sendable ([Favorite]) -> Void
  ) async throws(CatalogError) {
    let favorites = self.favorites
    try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.forEachWindow(order: order, size: 500, body)
    }
  }

  /// The largest import document taken, 64 MiB: about 20,000 favourites as exported (10,000
  /// with five bookmarks each take 46 MB). A file is read a piece at a time and each entry
  /// again as it is written in one transaction (all or nothing, see
  /// ``importFavorites(fileDescriptor:source:)``); a document from standard input is held
  /// whole, which the limit keeps near 128 MiB of memory.
  public static let importLimit = 64 << 20

  /// Adds the books found for a command's ids, in order, in one transaction; each is added
  /// at its own `addedAt` (when it was found), so the favourites keep the order they were
  /// named in. Returns, for each book, whether it was not a favourite before (the second of a
  /// book named twice was).
  public func addFavorites(_ books: [(book: Book, addedAt: Date)]) async throws(CatalogError)
    -> [Bool]
  {
    guard !books.isEmpty else { return [] }
    let favorites = self.favorites
    let added = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.add(books)
    }
    await settleChanges()
    return added
  }

  /// ``importFavorites(_:source:)`` of the regular file open at `descriptor`, streamed: memory
  /// is a piece of the file and one entry, not the document (see
  /// ``FavoritesStore/importFile(descriptor:source:at:)``). A file over ``importLimit`` is
  /// refused whole, unread, with the same error.
  public func importFavorites(fileDescriptor descriptor: Int32, source: String)
    async throws(CatalogError) -> ImportSummary
  {
    var info = stat()
    if fstat(descriptor, &info) == 0, Int(info.st_size) > Self.importLimit {
      throw Self.tooLarge(source)
    }
    let favorites = self.favorites
    let summary = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.importFile(descriptor: descriptor, source: source)
    }
    await settleChanges()
    return summary
  }

  /// The refusal of a document over ``importLimit``.
  private static func tooLarge(_ source: String) -> CatalogError {
    .store(
      .invalidImport(
        source: source, location: "size",
        reason: "larger than the \(importLimit >> 20) MiB import limit "
          + "(about 20,000 favourites; split the file)"))
  }

  /// Merges an export document, a Gutendex page, or an array of books; all or nothing. A
  /// document over ``importLimit`` is refused whole.
  public func importFavorites(_ data: Data, source: String) async throws(CatalogError)
    -> ImportSummary
  {
    guard data.count <= Self.importLimit else { throw Self.tooLarge(source) }
    let favorites = self.favorites
    let summary = try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try favorites.importDocument(data, source: source)
    }
    await settleChanges()
    return summary
  }
}
