import Catalog
import Foundation
import Gutendex

/// Every option and environment variable of `gutenberg`, resolved once, before anything is
/// opened, by one rule: an option wins over its variable, an empty variable counts as unset,
/// and a value that cannot be used is a ``ConfigurationError`` (exit 64) naming the option or
/// variable and what it accepts. Nothing else in the program reads the environment for these.
package struct AppConfiguration: Sendable {
  /// The options as given on the command line (for the lines that repeat them, such as the
  /// command that resumes a download).
  package var options: AppOptions
  /// The Gutendex server: `--server`, else `GUTENDEX_URL`, else gutendex.com.
  package var server: URL
  /// The data and cache directories: `--data-dir`, else `GUTENBERG_DATA_DIR` (and
  /// `GUTENBERG_CACHE_DIR`), else the XDG directories.
  package var location: StoreLocation
  /// How long an API request may take: `--timeout`, else `GUTENBERG_TIMEOUT`, else 15 s.
  package var timeout: Duration
  /// How long a file transfer may receive nothing: `--timeout`, else `GUTENBERG_TIMEOUT`, else
  /// 30 s.
  package var stallTimeout: Duration
  /// Where books come from: `--source`, else `GUTENBERG_SOURCE`, else auto.
  package var source: AppOptions.Source
  /// When the local catalogue answers first, when the browser syncs, and the feed's options
  /// (`--max-age`/`GUTENBERG_MAX_AGE`, `GUTENBERG_SYNC_INTERVAL`, `GUTENBERG_FEED_URL`,
  /// `GUTENBERG_FEED_MAX_AGE`).
  package var syncPolicy: SyncPolicy
  /// The mirrors book files come from when a command names none: `GUTENBERG_MIRRORS`, else
  /// `GUTENBERG_MIRROR`; empty for Project Gutenberg itself.
  package var mirrors: [DownloadMirror]
  /// The slowest a file transfer may go: `GUTENBERG_MIN_SPEED`, else the standard minimum.
  package var minimumSpeed: MinimumSpeed?
  /// Where `get` saves without `-o`: `GUTENBERG_DOWNLOAD_DIR`, else the current directory.
  package var downloadDirectory: String?
  /// Whether the background sync's interval was set (`GUTENBERG_SYNC_INTERVAL`): then a piped
  /// browser syncs too.
  package var syncIntervalIsSet: Bool
  /// The reading speed the reader's time left is worked out at: `GUTENBERG_WPM`, else 250
  /// words a minute.
  package var wordsPerMinute = 250
  /// The SMTP server `send --to mail:` goes through: `GUTENBERG_SMTP_URL` (`smtp://` with
  /// STARTTLS, or `smtps://`), nil when unset.
  package var smtpServer: URL?
  /// The sender of `send --to mail:`: `GUTENBERG_MAIL_FROM`, else the SMTP login when it is an
  /// address; nil when neither says.
  package var mailFrom: String?

  /// The variables read here, each with what it accepts (for `--help` and the tests).
  package static let variables = [
    "GUTENDEX_URL", "GUTENBERG_DATA_DIR", "GUTENBERG_CACHE_DIR", "GUTENBERG_SOURCE",
    "GUTENBERG_TIMEOUT", "GUTENBERG_MAX_AGE", "GUTENBERG_SYNC_INTERVAL", "GUTENBERG_MIN_SPEED",
    "GUTENBERG_MIRROR", "GUTENBERG_MIRRORS", "GUTENBERG_DOWNLOAD_DIR", "GUTENBERG_FEED_URL",
    "GUTENBERG_FEED_MAX_AGE", "GUTENBERG_INDEX", "GUTENBERG_PG_URL", "GUTENBERG_PG_PAUSE",
    "GUTENBERG_WPM", "GUTENBERG_SMTP_URL", "GUTENBERG_MAIL_FROM",
  ]

  /// Resolves `options` and their environment.
  package init(_ options: AppOptions) throws(ConfigurationError) {
    self.options = options
    let environment = options.environment
    func variable(_ name: String) -> String? {
      environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    if let text = options.server {
      server = try Self.httpURL(text, name: "--server", example: "https://gutendex.com")
    } else if let text = variable("GUTENDEX_URL") {
      server = try Self.httpURL(text, name: "GUTENDEX_URL", example: "https://gutendex.com")
    } else {
      server = GutendexClient.defaultServer
    }

    location = Self.location(options: options)
    for (name, directory) in [
      (options.dataDirectory == nil ? "GUTENBERG_DATA_DIR" : "--data-dir", location.dataDirectory),
      ("GUTENBERG_CACHE_DIR", location.cacheDirectory),
    ] {
      try Self.requireDirectory(directory.path, name: name)
    }

    if let text = variable("GUTENBERG_WPM") {
      guard let value = Int(text), (50...2000).contains(value) else {
        throw ConfigurationError(
          "GUTENBERG_WPM", text, isNot: "a number of words a minute from 50 to 2000")
      }
      wordsPerMinute = value
    }

    let seconds: Double?
    if let given = options.timeout {
      guard given > 0, given <= 600 else {
        throw ConfigurationError(message: "--timeout must be more than 0 and at most 600 seconds")
      }
      seconds = given
    } else if let text = variable("GUTENBERG_TIMEOUT") {
      guard let value = Double(text), value > 0, value <= 600 else {
        throw ConfigurationError(
          "GUTENBERG_TIMEOUT", text, isNot: "a number of seconds, more than 0 and at most 600")
      }
      seconds = value
    } else {
      seconds = nil
    }
    timeout = .milliseconds(Int64((seconds ?? 15) * 1000))
    stallTimeout = .milliseconds(Int64((seconds ?? 30) * 1000))

    if let given = options.source {
      source = given
    } else if let text = variable("GUTENBERG_SOURCE") {
      guard let value = AppOptions.Source(rawValue: text.lowercased()) else {
        throw ConfigurationError("GUTENBERG_SOURCE", text, isNot: "auto, server or local")
      }
      source = value
    } else {
      source = .auto
    }

    func duration(_ given: Double?, _ name: String, example: String) throws(ConfigurationError)
      -> Double?
    {
      if let given { return given }
      guard let text = variable(name) else { return nil }
      guard let value = SyncText.duration(text) else {
        throw ConfigurationError(name, text, isNot: "a duration like \(example)")
      }
      return value
    }
    let maxAge =
      try duration(options.maxAge, "GUTENBERG_MAX_AGE", example: "7d, 12h, 30m or 90")
      ?? SyncPolicy.defaultMaxAge
    let interval =
      try duration(options.syncInterval, "GUTENBERG_SYNC_INTERVAL", example: "24h, 30m or 90")
      ?? SyncPolicy.defaultInterval
    syncIntervalIsSet = options.syncInterval != nil || variable("GUTENBERG_SYNC_INTERVAL") != nil
    let sources = try Self.syncSources(options, pgURL: nil)
    syncPolicy = SyncPolicy(
      maxAge: source == .auto ? maxAge : nil, interval: interval,
      backgroundSync: !options.offline && (source == .auto || source == .server),
      feed: try Self.feedOptions(environment, siteFeed: sources.siteFeed))
    syncPolicy.sources = sources
    // With the automatic source, a server that failed within minutes is not waited for again
    // (this process or the next); `--source server` always waits.
    if source == .auto {
      syncPolicy.outageFile = location.dataDirectory.appendingPathComponent("server-down")
    }

    if let list = variable("GUTENBERG_MIRRORS") {
      switch DownloadMirror.list(list) {
      case .success(let found): mirrors = found
      case .failure(let bad):
        throw ConfigurationError(
          message: "GUTENBERG_MIRRORS: '\(Sanitizer.sanitize(bad.entry))' is not an http(s) URL")
      }
    } else if let one = variable("GUTENBERG_MIRROR") {
      guard let mirror = DownloadMirror(one) else {
        throw ConfigurationError("GUTENBERG_MIRROR", one, isNot: "an http(s) URL")
      }
      mirrors = [mirror]
    } else {
      mirrors = []
    }

    minimumSpeed =
      try variable("GUTENBERG_MIN_SPEED").map { text throws(ConfigurationError) in
        try MinimumSpeedText.parse(text, name: "GUTENBERG_MIN_SPEED")
      } ?? .standard

    downloadDirectory = variable("GUTENBERG_DOWNLOAD_DIR").map { HomePath.expand($0) }
    if let downloadDirectory {
      try Self.requireDirectory(downloadDirectory, name: "GUTENBERG_DOWNLOAD_DIR")
    }

    if let text = variable("GUTENBERG_SMTP_URL") {
      guard let url = URL(string: text), ["smtp", "smtps"].contains(url.scheme?.lowercased()),
        url.host?.isEmpty == false
      else {
        throw ConfigurationError(
          "GUTENBERG_SMTP_URL", URL.redacting(text),
          isNot: "an smtp:// or smtps:// URL (e.g. smtps://smtp.example.org:465)")
      }
      smtpServer = url
    }
    if let text = variable("GUTENBERG_MAIL_FROM") {
      guard MailMessage.isAddress(text) else {
        throw ConfigurationError(
          "GUTENBERG_MAIL_FROM", text, isNot: "a mail address (me@example.org)")
      }
      mailFrom = text
    } else if let user = smtpServer?.user(percentEncoded: false), MailMessage.isAddress(user) {
      mailFrom = user
    }

    if let index = variable("GUTENBERG_INDEX") {
      try Self.requireRegularFile(
        HomePath.expand(index, environment: environment), text: index, name: "GUTENBERG_INDEX")
    }
  }

  /// The mode of the catalogue service: never the network with the local source.
  package var mode: CatalogService.Mode {
    source == .embedded || source == .local ? .localOnly : .automatic
  }

  /// The data and cache directories `options` name (`--data-dir` with its `cache` inside, else
  /// the environment's); nothing is checked.
  package static func location(options: AppOptions) -> StoreLocation {
    if let directory = options.dataDirectory {
      let data = URL(
        fileURLWithPath: HomePath.expand(directory, environment: options.environment),
        isDirectory: true)
      return StoreLocation(
        dataDirectory: data, cacheDirectory: data.appendingPathComponent("cache", isDirectory: true)
      )
    }
    return StoreLocation.standard(environment: options.environment)
  }

  /// The feed's options from the environment (`GUTENBERG_FEED_URL`, `GUTENBERG_FEED_MAX_AGE`,
  /// `GUTENBERG_MIN_SPEED`), with `url` and `maxAge` (`sync --feed-url`, `--feed-max-age`) in their place when given.
  /// With Project Gutenberg's daily files as a source (`siteFeed`, their site's feed: see
  /// ``SyncSources/siteFeed``), the feed is that site's and is read monthly by default, for the
  /// download counts only it carries in bulk.
  package static func feedOptions(
    _ environment: [String: String], url: String? = nil, maxAge: String? = nil,
    force: Bool = false, siteFeed: URL? = nil
  ) throws(ConfigurationError) -> FeedOptions {
    var feed = FeedOptions(force: force)
    if let siteFeed {
      feed.url = siteFeed
      feed.maxAge = FeedOptions.countsMaxAge
    }
    // The feed keeps the rule book files keep: GUTENBERG_MIN_SPEED, else the standard minimum.
    if let text = environment["GUTENBERG_MIN_SPEED"], !text.isEmpty {
      feed.minimumSpeed = try MinimumSpeedText.parse(text, name: "GUTENBERG_MIN_SPEED")
    }
    let urlText = url ?? environment["GUTENBERG_FEED_URL"].flatMap { $0.isEmpty ? nil : $0 }
    if let urlText {
      let name = url == nil ? "GUTENBERG_FEED_URL" : "--feed-url"
      feed.url = try httpURL(
        urlText, name: name,
        example: "https://www.gutenberg.org/cache/epub/feeds/rdf-files.tar.bz2")
    }
    let ageText = maxAge ?? environment["GUTENBERG_FEED_MAX_AGE"].flatMap { $0.isEmpty ? nil : $0 }
    if let ageText {
      if ["never", "off"].contains(ageText.lowercased()) {
        feed.maxAge = nil
      } else if let seconds = SyncText.duration(ageText) {
        feed.maxAge = seconds
      } else {
        let name = maxAge == nil ? "GUTENBERG_FEED_MAX_AGE" : "--feed-max-age"
        throw ConfigurationError(name, ageText, isNot: "a duration like 7d (or never)")
      }
    }
    return feed
  }

  /// The sources a sync reads (see ``SyncSources``): `pgURL` (`sync --pg-url`), else
  /// `GUTENBERG_PG_URL`; whether `--server` or `GUTENDEX_URL` names a server;
  /// `GUTENBERG_PG_PAUSE`.
  package static func syncSources(_ options: AppOptions, pgURL: String?) throws(ConfigurationError)
    -> SyncSources
  {
    let environment = options.environment
    func variable(_ name: String) -> String? {
      environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    let siteText = pgURL ?? variable("GUTENBERG_PG_URL")
    if let siteText {
      _ = try httpURL(
        siteText, name: pgURL == nil ? "GUTENBERG_PG_URL" : "--pg-url",
        example: "https://www.gutenberg.org")
    }
    do throws(SyncSourcesError) {
      return try SyncSources.resolve(
        pgURL: siteText, serverNamed: options.server != nil || variable("GUTENDEX_URL") != nil,
        pause: variable("GUTENBERG_PG_PAUSE"))
    } catch {
      throw ConfigurationError(message: Sanitizer.sanitize(error.message))
    }
  }

  /// `text` as an http(s) URL with a host, or the error naming `name`.
  static func httpURL(_ text: String, name: String, example: String) throws(ConfigurationError)
    -> URL
  {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else {
      throw ConfigurationError(name, text, isNot: "an http(s) URL (e.g. \(example))")
    }
    return url
  }

  /// Refuses a path that exists and is not a directory (one that does not exist yet is made
  /// when it is first needed).
  static func requireDirectory(_ path: String, name: String) throws(ConfigurationError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else { return }
    throw ConfigurationError(name, path, isNot: "a directory")
  }

  /// Refuses a path that is not a regular file (missing, a directory, a FIFO, a device): it is
  /// never opened, so a FIFO cannot hang the program.
  static func requireRegularFile(_ path: String, text: String, name: String)
    throws(ConfigurationError)
  {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw ConfigurationError(name, text, isNot: "a file that exists")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw ConfigurationError(name, text, isNot: "a regular file")
    }
  }
}
