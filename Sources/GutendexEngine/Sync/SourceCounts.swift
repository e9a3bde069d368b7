import Foundation

/// What one source of a sync did: Project Gutenberg's `today.rss`, its per-book records, its
/// catalogue list (`pg_catalog.csv.gz`), its whole feed, or a Gutendex server's pages. A sync's
/// run holds one of these per source it used, and every count the front prints comes from them.
public struct SourceCounts: Sendable, Hashable, Codable {
  /// Which source.
  public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
    /// `today.rss`: the books posted or updated in the last day.
    case rss
    /// `cache/epub/<id>/pg<id>.rdf`, one request per book.
    case records
    /// `pg_catalog.csv.gz`: every book's id (and so which are new or gone).
    case csv
    /// `rdf-files.tar.bz2`: every book's record.
    case feed
    /// A Gutendex server's pages and `ids=` batches.
    case api
  }

  /// Which source.
  public var source: Source
  /// Requests sent to it (redirects and retries included).
  public var requests = 0
  /// Bytes of bodies received from it.
  public var bytes: Int64 = 0
  /// Books it brought that the catalogue did not have.
  public var added = 0
  /// Books it brought whose record changed.
  public var changed = 0
  /// Books it showed PG no longer has, removed from the catalogue.
  public var removed = 0
  /// Books it named that could not be had or read (a missing record, a broken one), skipped.
  public var skipped = 0
  /// Whether its file was unchanged since the last sync (a 304).
  public var unchanged = false

  /// Nothing done yet.
  public init(source: Source) {
    self.source = source
  }

  /// The source's name as the front prints it (`today.rss`, `records`, `pg_catalog.csv`,
  /// `feed`, `api`).
  public var name: String {
    switch source {
    case .rss: "today.rss"
    case .records: "records"
    case .csv: "pg_catalog.csv"
    case .feed: "feed"
    case .api: "api"
    }
  }
}
