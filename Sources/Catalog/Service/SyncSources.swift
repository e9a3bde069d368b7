import Foundation
import GutendexEngine

/// Which sources a sync reads to keep the local catalogue current: Project Gutenberg's own
/// small files (`today.rss`, per-book records, `pg_catalog.csv.gz`: the default, and whenever
/// `--pg-url` or `GUTENBERG_PG_URL` is given) and a Gutendex server's pages (when `--server` or
/// `GUTENDEX_URL` names one: a self-hosted Gutendex, walked as before; without `--pg-url` it
/// is then the only source).
public struct SyncSources: Sendable, Hashable {
  /// Project Gutenberg's files and how to read them; nil: not read.
  public var gutenberg: GutenbergPolicy?
  /// Whether the Gutendex server's pages are walked.
  public var walksServer: Bool

  /// The whole feed's URL (`rdf-files.tar.bz2`) at the Project Gutenberg site these sources
  /// read, nil when they read none: where the front's feed options point by default then.
  public var siteFeed: URL? { gutenberg?.site.feed }

  /// Sources; by default the server's pages only (as before Project Gutenberg's files).
  public init(gutenberg: GutenbergPolicy? = nil, walksServer: Bool = true) {
    self.gutenberg = gutenberg
    self.walksServer = walksServer
  }

  /// The sources the options name: `pgURL` (`--pg-url`, else `GUTENBERG_PG_URL`), whether a
  /// server was named (`--server`, `GUTENDEX_URL`), and `pause` (`GUTENBERG_PG_PAUSE`, the
  /// seconds between per-book records; 0.5 by default, never less than 0). Throws a one-line
  /// message for a URL or pause that means nothing.
  public static func resolve(
    pgURL: String?, serverNamed: Bool, pause: String? = nil
  ) throws(SyncSourcesError) -> SyncSources {
    var policy = GutenbergPolicy()
    if let pgURL {
      guard let url = URL(string: pgURL), ["http", "https"].contains(url.scheme?.lowercased()),
        url.host?.isEmpty == false
      else { throw SyncSourcesError(message: "'\(pgURL)' is not an http(s) URL") }
      policy.site = GutenbergSite(base: url)
    } else if serverNamed {
      // A self-hosted Gutendex alone: its pages are the source, as before.
      return SyncSources(gutenberg: nil, walksServer: true)
    }
    policy.pause = try Self.pause(pause)
    return SyncSources(gutenberg: policy, walksServer: serverNamed)
  }

  /// The pause between requests to Project Gutenberg that `pause` (`GUTENBERG_PG_PAUSE`, in
  /// seconds, 0 to 60) names, else the default (0.5 s): the daily sync's records and
  /// `library update`'s files are paced alike. Throws a one-line message for a value that
  /// means nothing.
  public static func pause(_ pause: String?) throws(SyncSourcesError) -> Duration {
    guard let pause else { return GutenbergPolicy.defaultPause }
    guard let seconds = Double(pause), seconds.isFinite, seconds >= 0, seconds <= 60 else {
      throw SyncSourcesError(
        message: "GUTENBERG_PG_PAUSE: '\(pause)' is not a number of seconds (0 to 60)")
    }
    return .milliseconds(Int64(seconds * 1000))
  }
}
