import Foundation
import GutendexEngine

/// When the local catalogue answers first and when the browser syncs it.
public struct SyncPolicy: Sendable, Hashable {
  /// The default freshness window: a week.
  public static let defaultMaxAge: TimeInterval = 7 * 24 * 3600
  /// The default background sync interval: a day.
  public static let defaultInterval: TimeInterval = 24 * 3600

  /// Answer from the local catalogue with no request while the last good sync is younger than
  /// this; nil never answers first (`--source server`).
  public var maxAge: TimeInterval?
  /// The browser syncs in the background when the last sync is older than this.
  public var interval: TimeInterval
  /// Whether the browser may sync by itself (not with `--offline` or `--source local`).
  public var backgroundSync: Bool
  /// When a sync (the browser's too) also refreshes from Project Gutenberg's feed; nil never.
  public var feed: FeedOptions?
  /// Which sources a sync reads: Project Gutenberg's small files, a Gutendex server's pages.
  public var sources = SyncSources()

  /// Where a recent failure to reach the server is remembered across processes, so that
  /// pages answer locally at once for a few minutes; nil: every page asks the server
  /// (`--source server`).
  public var outageFile: URL?

  /// A policy; the defaults are a week's freshness and a daily sync.
  public init(
    maxAge: TimeInterval? = SyncPolicy.defaultMaxAge,
    interval: TimeInterval = SyncPolicy.defaultInterval, backgroundSync: Bool = true,
    feed: FeedOptions? = nil, outageFile: URL? = nil
  ) {
    self.maxAge = maxAge
    self.interval = interval
    self.backgroundSync = backgroundSync
    self.feed = feed
    self.outageFile = outageFile
  }
}
