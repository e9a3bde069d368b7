import Foundation

/// Project Gutenberg's own files below one base URL (`https://www.gutenberg.org` by default, or
/// a copy laid out the same way), at the paths PG publishes them under: `today.rss` and
/// `pg_catalog.csv.gz` in `cache/epub/feeds/`, beside the whole feed, and one RDF record per
/// book at `cache/epub/<id>/pg<id>.rdf`.
public struct GutenbergSite: Sendable, Hashable {
  /// Project Gutenberg itself.
  public static let defaultBase = URL(string: "https://www.gutenberg.org")!

  /// The site's base URL (no trailing slash needed).
  public var base: URL

  /// The site at `base`.
  public init(base: URL = GutenbergSite.defaultBase) {
    self.base = base
  }

  /// Books posted or updated in the last day (RSS).
  public var todayRSS: URL { url("cache/epub/feeds/today.rss") }
  /// Every book, one CSV line each (gzip).
  public var catalogCSV: URL { url("cache/epub/feeds/pg_catalog.csv.gz") }
  /// Every book's RDF record in one `.tar.bz2`.
  public var feed: URL { url("cache/epub/feeds/rdf-files.tar.bz2") }

  /// Book `id`'s RDF record.
  public func record(_ id: Int) -> URL { url("cache/epub/\(id)/pg\(id).rdf") }

  private func url(_ path: String) -> URL {
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    return URL(string: "\(text)/\(path)") ?? base.appendingPathComponent(path)
  }
}
