import Foundation
import Gutendex

/// When and from where a sync refreshes the local catalogue from Project Gutenberg's own feed
/// (`rdf-files.tar.bz2`, every book in one file).
public struct FeedPolicy: Sendable, Hashable {
  /// Project Gutenberg's feed.
  public static let defaultURL = URL(
    string: "https://www.gutenberg.org/cache/epub/feeds/rdf-files.tar.bz2")!
  /// A week: at most one feed download a week by default (the file is 50–100 MB).
  public static let defaultMaxAge: TimeInterval = 7 * 24 * 3600
  /// The User-Agent of feed requests: the program and where it comes from.
  public static let userAgent = HTTPPipeline.userAgent

  /// The feed file's URL (a mirror's copy, say).
  public var url: URL
  /// A sync refreshes from the feed when the last refresh (or check) is older than this; nil
  /// never by itself.
  public var maxAge: TimeInterval?
  /// Refresh now whatever the age (`sync --feed`, `sync --full`).
  public var force: Bool
  /// The slowest the feed may arrive (the rule book files follow), nil for no floor: a server
  /// trickling the file cannot hold a sync for ever.
  public var minimumSpeed: MinimumSpeed?

  /// A policy; by default the feed is checked once a week, at the standard minimum speed.
  public init(
    url: URL = FeedPolicy.defaultURL, maxAge: TimeInterval? = FeedPolicy.defaultMaxAge,
    force: Bool = false, minimumSpeed: MinimumSpeed? = .standard
  ) {
    self.url = url
    self.maxAge = maxAge
    self.force = force
    self.minimumSpeed = minimumSpeed
  }

  /// Whether a sync at `now` refreshes from the feed, given what the last refresh recorded.
  public func isDue(_ feed: FeedState?, at now: Date) -> Bool {
    if force { return true }
    guard let maxAge else { return false }
    guard let checked = feed?.checked, feed?.url == url.redacted else { return true }
    return now.timeIntervalSince(checked) >= maxAge
  }
}
