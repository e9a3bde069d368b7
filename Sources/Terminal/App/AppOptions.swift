import Foundation

/// The global options every command shares, already parsed.
public struct AppOptions: Sendable {
  /// Where books come from.
  public enum Source: String, Sendable, CaseIterable {
    /// The server, then the page cache, then the embedded catalogue.
    case auto
    /// The embedded catalogue only; the network is never used.
    case embedded
  }

  /// `--server`, else `GUTENDEX_URL`, else gutendex.com.
  public var server: String?
  /// `--data-dir`, else `GUTENBERG_DATA_DIR`, else the XDG data directory.
  public var dataDirectory: String?
  /// `--offline`: behave as if there were no network (cache, then embedded catalogue).
  public var offline: Bool
  /// `--source`, else `GUTENBERG_SOURCE`.
  public var source: Source?
  /// When to colour the output.
  public var color: ColorPolicy.Mode
  /// Whether to log each request on standard error.
  public var verbose: Bool
  /// `--timeout` in seconds, else `GUTENBERG_TIMEOUT`, else 15.
  public var timeout: Double?
  /// The environment the options fall back on (`GUTENDEX_URL`, `NO_COLOR`, ...).
  public var environment: [String: String]

  /// Options as given on the command line; nil means "not given".
  public init(
    server: String? = nil, dataDirectory: String? = nil, offline: Bool = false,
    source: Source? = nil, color: ColorPolicy.Mode = .auto, verbose: Bool = false,
    timeout: Double? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
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
