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

  /// True when the server could not be used and something else stood in.
  public var isFallback: Bool { fallbackReason != nil }
}

extension LoadState {
  /// Where what is shown came from, when something is shown.
  public var provenance: Provenance? {
    switch self {
    case .loaded(let source): Provenance(source)
    case .offline(let source, let reason): Provenance(source, fallbackReason: reason)
    default: nil
    }
  }
}

extension LoadedPage {
  /// Where the page came from and why, in one value.
  public var provenance: Provenance { Provenance(source, fallbackReason: fallbackReason) }
}
