import Foundation

/// The favourites as documents: exported (whole, to a file, or streamed) and imported (held
/// whole, or streamed from a file), each all or nothing, off the main actor. Reached through
/// ``CatalogService/transfer``.
public struct FavoritesTransfer: Sendable {
  let favorites: FavoritesStore
  /// Called after an import, so observers see the change (``CatalogService``'s settling).
  let settle: @Sendable () async -> Void

  /// The largest import document taken, 64 MiB: about 20,000 favourites as exported (10,000
  /// with five bookmarks each take 46 MB). A file is read a piece at a time and each entry
  /// again as it is written in one transaction (all or nothing, see
  /// ``importFavorites(fileDescriptor:source:)``); a document from standard input is held
  /// whole, which the limit keeps near 128 MiB of memory.
  public static let importLimit = 64 << 20

  /// The export document (versioned JSON) of every favourite.
  public func exportFavorites() async throws(CatalogError) -> Data {
    try await run { favorites throws(StoreError) in try favorites.exportDocument() }
  }

  /// Writes the export document to `file` atomically; returns how many favourites it holds.
  public func exportFavorites(to file: URL) async throws(CatalogError) -> Int {
    try await run { favorites throws(StoreError) in try favorites.export(to: file) }
  }

  /// Streams the export document to `write` in pieces of about 64 KiB, each whole UTF-8 (a
  /// piece ends with a favourite); memory stays that of one piece. Returns how many favourites
  /// it holds.
  @discardableResult
  public func exportFavorites(streamingTo write: @escaping @Sendable ([UInt8]) -> Void)
    async throws(CatalogError) -> Int
  {
    try await run { favorites throws(StoreError) in
      try favorites.writeExport { (piece: [UInt8]) throws(StoreError) in write(piece) }
    }
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
    let summary = try await run { favorites throws(StoreError) in
      try favorites.importFile(descriptor: descriptor, source: source)
    }
    await settle()
    return summary
  }

  /// Merges an export document, a Gutendex page, or an array of books; all or nothing. A
  /// document over ``importLimit`` is refused whole.
  public func importFavorites(_ data: Data, source: String) async throws(CatalogError)
    -> ImportSummary
  {
    guard data.count <= Self.importLimit else { throw Self.tooLarge(source) }
    let summary = try await run { favorites throws(StoreError) in
      try favorites.importDocument(data, source: source)
    }
    await settle()
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

  /// Runs `work` on the favourites store off the caller's actor, waiting for a writer as the
  /// store does.
  private func run<T: Sendable>(
    _ work: @escaping @Sendable (FavoritesStore) throws(StoreError) -> T
  ) async throws(CatalogError) -> T {
    let favorites = self.favorites
    return try await StoreWork.run(on: favorites.busyWait) { () throws(StoreError) in
      try work(favorites)
    }
  }
}
