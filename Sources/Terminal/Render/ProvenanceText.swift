import Catalog
import Foundation

/// How a ``Provenance`` reads on screen: the banner over a page or book, and the status
/// screen's "Source" line.
enum ProvenanceText {
  /// A one-line explanation for everything but a live answer (which needs none).
  static func banner(_ provenance: Provenance, now: Date) -> String? {
    let offline = provenance.isFallback
    switch provenance.source {
    case .network:
      return nil
    case .cache(let date), .favorite(let date):
      let age = TextFormat.age(max(0, now.timeIntervalSince(date)))
      return offline ? "offline — showing cached page from \(age)" : "cached page from \(age)"
    case .local(let name):
      let name = Sanitizer.sanitize(name)
      return offline ? "offline — \(name)" : name
    }
  }

  /// The banner, then why the server was not used (in parentheses) when a fallback stood in:
  /// the user sees what they are looking at and what to do about it.
  static func bannerLines(_ provenance: Provenance, now: Date) -> [String] {
    guard let banner = banner(provenance, now: now) else { return [] }
    guard let reason = provenance.fallbackReason.map(Sanitizer.sanitize), !reason.isEmpty else {
      return [banner]
    }
    return [banner, "(\(reason))"]
  }

  /// A short name for the status screen: `live (network)`, `cached page from 5 min ago`, ...
  static func summary(_ provenance: Provenance, now: Date) -> String {
    banner(provenance, now: now) ?? "live (network)"
  }
}
