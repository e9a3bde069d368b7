import Foundation
import Gutendex

/// The page cache and library intents, off the main actor.
extension CatalogService {
  /// Bookmarks, highlights and notes.
  public var marks: ReadingMarks {
    ReadingMarks(library: library) { [self] in await settleChanges() }
  }

  /// The book of a note, for its title and authors, without the network: the favourite's
  /// snapshot, else the local catalogue's record; nil when neither has it.
  public func noteBook(id: Int) async -> Book? {
    let favorites = self.favorites
    if let favorite = try? await StoreWork.run(
      on: favorites.busyWait, { () throws(StoreError) in try favorites.favorite(id: id) })
    {
      return favorite.book
    }
    return try? local?.store().book(id: id)
  }

  /// The page cache's size and age.
  public func cacheInfo() async throws(CatalogError) -> CacheInfo {
    guard let cache else { throw .cacheUnavailable(cacheProblem?.description) }
    return try await StoreWork.run(on: cache.busyWait) { () throws(StoreError) in try cache.info() }
  }

  /// Empties the page cache; returns how many pages it held.
  public func clearCache() async throws(CatalogError) -> Int {
    guard let cache else { throw .cacheUnavailable(cacheProblem?.description) }
    return try await StoreWork.run(on: cache.busyWait) { () throws(StoreError) in
      let entries = try cache.info().entries
      try cache.clear()
      return entries
    }
  }

  /// The page cache's figures, nil without a cache.
  func cacheInfoIfAny() async throws(CatalogError) -> CacheInfo? {
    guard let cache else { return nil }
    return try await StoreWork.run(on: cache.busyWait) { () throws(StoreError) in try cache.info() }
  }

  /// Every download, newest first (or only book `id`'s).
  public func downloads(id: Int? = nil) async throws(CatalogError) -> [LibraryEntry] {
    let library = self.library
    return try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      if let id { return try library.entries(id: id) }
      return try library.entries()
    }
  }

  /// Records a finished download, replacing an earlier one of the same book and format, with
  /// the contents the front works out for it (``libraryContents``), worked out here off the
  /// caller's actor.
  public func recordDownload(_ entry: LibraryEntry) async throws(CatalogError) {
    let library = self.library
    let contents = self.libraryContents
    try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.record(entry, contents: contents?(entry))
    }
    await settleChanges()
  }

  /// The contents kept with the downloads, for `library search`.
  public func downloadContents() async throws(CatalogError) -> [LibraryContents] {
    let library = self.library
    return try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.contents()
    }
  }

  /// Removes book `id` from the library and returns its rows (the caller deletes the files).
  public func removeDownloads(id: Int) async throws(CatalogError) -> [LibraryEntry] {
    let library = self.library
    let removed = try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.remove(id: id)
    }
    await settleChanges()
    return removed
  }

  /// Where book `id` was when last read, or nil.
  public func readingPosition(id: Int) async throws(CatalogError) -> ReadingPosition? {
    let library = self.library
    return try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.readingPosition(id: id)
    }
  }

  /// Keeps where the reader is in book `id`.
  public func setReadingPosition(id: Int, _ position: ReadingPosition) async throws(CatalogError) {
    let library = self.library
    try await StoreWork.run(on: library.busyWait) { () throws(StoreError) in
      try library.setReadingPosition(id: id, position)
    }
  }
}
