import Foundation

/// Where the books on screen came from.
public enum PageSource: Sendable, Hashable {
  /// Fresh from the server.
  case network
  /// From the local page cache, fetched from the server at that date.
  case cache(fetchedAt: Date)
  /// From the local catalogue (the embedded snapshot), named e.g. "embedded catalogue of 2025-08".
  case local(name: String)
  /// From the saved favourite snapshot, saved or last refreshed at that date.
  case favorite(savedAt: Date)
}
