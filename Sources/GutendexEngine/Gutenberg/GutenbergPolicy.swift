import Foundation

/// How a sync keeps the catalogue current from Project Gutenberg's own small files (see
/// `GutenbergDailyRead.swift`): where the site is, how long to pause between per-book
/// records, how many records are worth fetching one by one before the whole feed is cheaper,
/// and how long a `Retry-After` may ask it to wait.
public struct GutenbergPolicy: Sendable, Hashable {
  /// Half a second between records: at most two requests a second, as PG's robot rules ask
  /// of anything that fetches many files.
  public static let defaultPause: Duration = .milliseconds(500)
  /// Past this many records to fetch, the whole feed (one request, ~130 MB) is taken instead.
  public static let defaultRecordLimit = 2_000
  /// The longest `Retry-After` honoured by waiting; a longer one ends the sync early.
  public static let defaultMaxRetryAfter: Duration = .seconds(120)
  /// How old `today.rss` may be beyond the catalogue's last complete state before the days
  /// in between are taken from the catalogue list: a day, and two hours of slack for PG's
  /// nightly build moving.
  static let rssSpan: TimeInterval = 26 * 3600

  /// The site (Project Gutenberg, or a copy laid out the same way).
  public var site: GutenbergSite
  /// The pause before each per-book record after the first.
  public var pause: Duration
  /// The most records fetched one by one.
  public var recordLimit: Int
  /// The longest wait a `Retry-After` is honoured for.
  public var maxRetryAfter: Duration

  /// A policy; by default Project Gutenberg itself, two records a second at most.
  public init(
    site: GutenbergSite = GutenbergSite(), pause: Duration = GutenbergPolicy.defaultPause,
    recordLimit: Int = GutenbergPolicy.defaultRecordLimit,
    maxRetryAfter: Duration = GutenbergPolicy.defaultMaxRetryAfter
  ) {
    self.site = site
    self.pause = pause
    self.recordLimit = recordLimit
    self.maxRetryAfter = maxRetryAfter
  }
}
