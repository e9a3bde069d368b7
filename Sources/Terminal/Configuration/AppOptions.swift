import Foundation

/// The global options every command shares, already parsed.
package struct AppOptions: Sendable {
  /// Where books come from.
  package enum Source: String, Sendable, CaseIterable {
    /// The local catalogue first while a sync is fresh (`--max-age`), else the server, then
    /// the page cache, then the local catalogue.
    case auto
    /// Always the server first (then the cache and the local catalogue when it fails).
    case server
    /// The local catalogue only (the embedded snapshot plus synced books); never the network.
    case local
    /// The old name of `local`, kept as an alias.
    case embedded
  }

  /// `--server`, else `GUTENDEX_URL`, else gutendex.com.
  package var server: String?
  /// `--data-dir`, else `GUTENBERG_DATA_DIR`, else the XDG data directory.
  package var dataDirectory: String?
  /// `--offline`: behave as if there were no network (cache, then embedded catalogue).
  package var offline: Bool
  /// `--source`, else `GUTENBERG_SOURCE`.
  package var source: Source?
  /// When to colour the output.
  package var color: ColorPolicy.Mode
  /// Whether to log each request on standard error.
  package var verbose: Bool
  /// `--timeout` in seconds, else `GUTENBERG_TIMEOUT`, else 15.
  package var timeout: Double?
  /// `--max-age` in seconds: how long after a sync answers come from the local catalogue first
  /// (default 7 days).
  package var maxAge: Double?
  /// `--sync-interval` in seconds: how old the last sync may be before the browser syncs in
  /// the background (default 24 hours; `GUTENBERG_SYNC_INTERVAL`).
  package var syncInterval: Double?
  /// The environment the options fall back on (`GUTENDEX_URL`, `NO_COLOR`, ...).
  package var environment: [String: String]
  /// Set by commands that only read (`list`, `show`, `status`, `favorites list`): the
  /// favourites file is opened read-only, so they write nothing and never wait for a writer.
  package var readsOnly = false
  /// Set by read-only commands that never show a server's page (`library`, `library search`,
  /// `bookmarks`): the page cache is only read too, so the data directory stays as it was.
  package var readsNoPages = false
  /// Set by commands that never look at the page cache (`library`, `library search`,
  /// `bookmarks`, `favorites list`): it is not opened at all.
  package var usesNoPageCache = false

  /// Options as given on the command line; nil means "not given".
  package init(
    server: String? = nil, dataDirectory: String? = nil, offline: Bool = false,
    source: Source? = nil, color: ColorPolicy.Mode = .auto, verbose: Bool = false,
    timeout: Double? = nil, maxAge: Double? = nil, syncInterval: Double? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.maxAge = maxAge
    self.syncInterval = syncInterval
    self.server = server
    self.dataDirectory = dataDirectory
    self.offline = offline
    self.source = source
    self.color = color
    self.verbose = verbose
    self.timeout = timeout
    self.environment = environment
  }
}
