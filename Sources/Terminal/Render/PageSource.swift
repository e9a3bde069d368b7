import Foundation

/// Where the books on screen came from, so the user always knows how fresh they are.
public enum PageSource: Sendable, Hashable {
  /// Fetched from the server just now.
  case live
  /// Served from the local page cache while online; `age` seconds old.
  case cache(age: TimeInterval)
  /// From the catalogue built into the program (chosen by the user), made in `snapshot`
  /// (e.g. `2025-08`).
  case embedded(snapshot: String)
  /// The server is unreachable; a cached copy `age` seconds old stands in.
  case offlineCache(age: TimeInterval)
  /// The server is unreachable and nothing is cached; the built-in catalogue stands in.
  case offlineEmbedded(snapshot: String)

  /// A one-line explanation for every source but ``live`` (which needs none).
  public var banner: String? {
    switch self {
    case .live:
      nil
    case .cache(let age):
      "cached page from \(TextFormat.age(age))"
    case .embedded(let snapshot):
      "embedded catalogue of \(Sanitizer.sanitize(snapshot))"
    case .offlineCache(let age):
      "offline — showing cached page from \(TextFormat.age(age))"
    case .offlineEmbedded(let snapshot):
      "offline — embedded catalogue of \(Sanitizer.sanitize(snapshot))"
    }
  }

  /// A short name for the status screen: `live`, `cache (5 min ago)`, ...
  public var summary: String {
    switch self {
    case .live: "live (network)"
    default: banner ?? "live"
    }
  }

  /// True when the server could not be reached for this page.
  public var isOffline: Bool {
    switch self {
    case .offlineCache, .offlineEmbedded: true
    default: false
    }
  }
}
