import Foundation
import Gutendex

/// Books Project Gutenberg no longer lists leave the local catalogue as they leave Gutendex's
/// (`updatecatalog` deletes a book whose record left the feed): the base is written again
/// without them, and replaces the old one atomically like a feed refresh.
extension LocalCatalogueFiles {
  /// The most books one complete list may remove at once: PG withdraws a handful a year, so a
  /// list lacking more than this (a hundred, or 2% of the catalogue) is more likely cut short
  /// or not the whole catalogue; its books are kept and the sync says so.
  public static func removalLimit(bookCount: Int) -> Int { max(100, bookCount / 50) }

  /// Writes a new base of every book `engine` (the current catalogue) holds but `ids`, and
  /// makes it the catalogue with `state` (no delta: the delta's books are in the new base).
  /// Returns the state written. The caller holds the sync lock.
  func removing(_ ids: Set<Int>, from engine: GutendexEngine, state: SyncState) throws -> SyncState
  {
    var index = try StreamedIndex(in: directory)
    defer { index.close() }
    // Each layer read as a stream; the delta's copy of a book supersedes the base's.
    try engine.forEachLayeredRecord { record, fromDelta in
      guard !ids.contains(record.id) else { return }
      try index.add(record, superseded: !fromDelta)
    }
    let name = freshName("local")
    let file = directory.appendingPathComponent(name)
    let bookCount = try index.write(to: file, keepingSummaries: true)
    try commit(baseNamed: name, bookCount: bookCount, state: state)
    return try readState() ?? state
  }
}
