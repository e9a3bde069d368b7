import Foundation

/// Where the store's files live: the data directory (favourites) and the cache directory (pages).
public struct StoreLocation: Sendable, Hashable {
  /// Holds `favorites.sqlite`; losing it loses the user's favourites.
  public var dataDirectory: URL
  /// Holds `pages.sqlite`; safe to delete at any time.
  public var cacheDirectory: URL

  /// Uses exactly these directories (see ``standard(environment:)`` for the usual ones).
  public init(dataDirectory: URL, cacheDirectory: URL) {
    self.dataDirectory = dataDirectory
    self.cacheDirectory = cacheDirectory
  }

  /// The location chosen by the environment, following the XDG base directory convention.
  ///
  /// Data: `$GUTENBERG_DATA_DIR`, else `$XDG_DATA_HOME/gutenberg`, else
  /// `~/.local/share/gutenberg`. Cache: `$GUTENBERG_CACHE_DIR`, else `<data>/cache` when
  /// `$GUTENBERG_DATA_DIR` is set (so one variable keeps a run self-contained), else
  /// `$XDG_CACHE_HOME/gutenberg`, else `~/.cache/gutenberg`. Empty variables count as unset,
  /// and relative XDG paths are ignored as the XDG specification asks.
  public static func standard(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> StoreLocation {
    func value(_ name: String) -> String? {
      guard let text = environment[name], !text.isEmpty else { return nil }
      return text
    }
    func directory(_ text: String) -> URL {
      URL(fileURLWithPath: expandTilde(text, environment: environment), isDirectory: true)
        .standardizedFileURL
    }
    func xdg(_ name: String) -> URL? {
      guard let text = value(name), text.hasPrefix("/") else { return nil }
      return directory(text).appendingPathComponent("gutenberg", isDirectory: true)
    }
    let home = homeDirectory(environment: environment)
    let explicitData = value("GUTENBERG_DATA_DIR").map(directory)
    let data =
      explicitData ?? xdg("XDG_DATA_HOME")
      ?? home.appendingPathComponent(".local/share/gutenberg", isDirectory: true)
    let cache =
      value("GUTENBERG_CACHE_DIR").map(directory)
      ?? explicitData.map { $0.appendingPathComponent("cache", isDirectory: true) }
      ?? xdg("XDG_CACHE_HOME")
      ?? home.appendingPathComponent(".cache/gutenberg", isDirectory: true)
    return StoreLocation(dataDirectory: data, cacheDirectory: cache)
  }

  /// The favourites database: `<data>/favorites.sqlite`.
  public var favoritesDatabase: URL {
    dataDirectory.appendingPathComponent("favorites.sqlite", isDirectory: false)
  }

  /// The page cache database: `<cache>/pages.sqlite`.
  public var cacheDatabase: URL {
    cacheDirectory.appendingPathComponent("pages.sqlite", isDirectory: false)
  }

  private static func homeDirectory(environment: [String: String]) -> URL {
    if let home = environment["HOME"], !home.isEmpty {
      return URL(fileURLWithPath: home, isDirectory: true)
    }
    return FileManager.default.homeDirectoryForCurrentUser
  }

  private static func expandTilde(_ text: String, environment: [String: String]) -> String {
    guard text == "~" || text.hasPrefix("~/") else { return text }
    return homeDirectory(environment: environment).path + text.dropFirst()
  }
}
