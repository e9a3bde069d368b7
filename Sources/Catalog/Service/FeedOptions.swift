import Foundation
import Gutendex
import GutendexEngine

/// When and from where a sync refreshes the local catalogue from Project Gutenberg's own feed
/// (`rdf-files.tar.bz2`, every book in one file), as the front's options say.
public struct FeedOptions: Sendable, Hashable {
  /// The feed file's URL (a mirror's copy, say); Project Gutenberg's by default.
  public var url: URL
  /// A sync refreshes from the feed when the last refresh (or check) is older than this; nil
  /// never by itself.
  public var maxAge: TimeInterval?
  /// Refresh now whatever the age (`sync --feed`, `sync --full`).
  public var force: Bool
  /// The slowest the feed may arrive (`GUTENBERG_MIN_SPEED`, as for book files); nil none.
  public var minimumSpeed: MinimumSpeed?

  /// Options; by default Project Gutenberg's feed, checked once a week, at the standard
  /// minimum speed.
  public init(
    url: URL? = nil, maxAge: TimeInterval? = FeedPolicy.defaultMaxAge, force: Bool = false,
    minimumSpeed: MinimumSpeed? = .standard
  ) {
    self.url = url ?? FeedPolicy.defaultURL
    self.maxAge = maxAge
    self.force = force
    self.minimumSpeed = minimumSpeed
  }

  /// A month: how often the feed is read for its download counts when Project Gutenberg's
  /// small files keep the catalogue current day by day.
  public static let countsMaxAge: TimeInterval = 30 * 24 * 3600

  /// The sync's policy for these options.
  var policy: FeedPolicy {
    FeedPolicy(url: url, maxAge: maxAge, force: force, minimumSpeed: minimumSpeed)
  }
}
