import Foundation

/// Where what is on screen came from, and why the server was not used when it was not: the
/// one vocabulary of freshness for state, the status screen and banners.
public struct Provenance: Sendable, Hashable {
  /// The source: the server, the page cache, the local catalogue or a saved favourite.
  public var source: PageSource
  /// Why a fallback stood in for the server (its error, or "simulated offline"); nil when the
  /// source was chosen (live, or the local catalogue picked with `--source embedded`).
  public var fallbackReason: String?

  /// A provenance from `source`, standing in for the server when `fallbackReason` is set.
  public init(_ source: PageSource, fallbackReason: String? = nil) {
    self.source = source
    self.fallbackReason = fallbackReason
  }

  /// Fresh from the server.
  public static let network = Provenance(.network)

  /// From the page cache, fetched at `fetchedAt` (while the server was used).
  public static func cache(fetchedAt: Date) -> Provenance {
    Provenance(.cache(fetchedAt: fetchedAt))
  }

  /// From the local catalogue called `name`, chosen by the user.
  public static func local(name: String) -> Provenance { Provenance(.local(name: name)) }

  /// From a saved favourite, saved or last refreshed at `savedAt`.
  public static func favorite(savedAt: Date) -> Provenance {
    Provenance(.favorite(savedAt: savedAt))
  }

  /// From `source`, standing in for the server, which could not be used because of `reason`.
  public static func fallback(_ source: PageSource, reason: String) -> Provenance {
    Provenance(source, fallbackReason: reason)
  }

  /// True when the server could not be used and something else stood in.
  public var isFallback: Bool { fallbackReason != nil }
}
