import Foundation

/// What the data directory remembers of Project Gutenberg's small files between syncs: the
/// validators of `today.rss` and `pg_catalog.csv.gz` (each asked for conditionally), the last
/// `today.rss` read, and the moment the catalogue is known to be complete up to.
public struct GutenbergState: Sendable, Hashable, Codable {
  /// A file's validators, sent back as `If-None-Match` and `If-Modified-Since`.
  public struct Validators: Sendable, Hashable, Codable {
    /// `ETag`.
    public var etag: String?
    /// `Last-Modified`.
    public var lastModified: String?

    /// Validators as a response gave them; nil when it gave neither.
    init?(etag: String?, lastModified: String?) {
      guard etag != nil || lastModified != nil else { return nil }
      self.etag = etag
      self.lastModified = lastModified
    }
  }

  /// The site these describe (a change of `--pg-url` starts over).
  public var site: String
  /// `today.rss`'s validators, once one was read whole.
  public var rss: Validators?
  /// The channel date of the last `today.rss` read, so the same file served again without
  /// validators is not read twice.
  public var rssBuilt: String?
  /// `pg_catalog.csv.gz`'s validators, once one was read whole.
  public var csv: Validators?
  /// The catalogue holds every change PG published up to this moment (the date of the last
  /// `today.rss`, complete list or feed read whole); nil before the first.
  public var currentAsOf: Date?
  /// When the download counts were last refreshed in bulk (a whole feed).
  public var countsRefreshed: Date?

  /// Nothing known yet of `site`.
  public init(site: String) {
    self.site = site
  }
}
