import Foundation

/// A Project Gutenberg mirror: file URLs on www.gutenberg.org are fetched from it instead
/// (`--mirror`, `GUTENBERG_MIRROR`), the way PG asks heavy users to do.
public struct DownloadMirror: Sendable, Hashable {
  /// The mirror's base URL; the file's path is appended to its path.
  public var base: URL

  /// A mirror at `text`, which must be an http(s) URL with a host.
  public init?(_ text: String) {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false
    else { return nil }
    base = url
  }

  /// The mirrors `text` lists, separated by spaces or commas (`GUTENBERG_MIRRORS`); a failure
  /// naming the first entry that is not an http(s) URL, when one is not.
  public static func list(_ text: String) -> Result<[DownloadMirror], ListError> {
    var mirrors: [DownloadMirror] = []
    for word in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
      guard let mirror = DownloadMirror(String(word)) else {
        return .failure(ListError(entry: String(word)))
      }
      mirrors.append(mirror)
    }
    return .success(mirrors)
  }

  /// An entry of a mirror list that is not an http(s) URL.
  public struct ListError: Error, Sendable, Hashable {
    /// The entry, as written.
    public var entry: String
  }

  /// Hosts whose files the mirror holds.
  static let gutenbergHosts: Set<String> = ["www.gutenberg.org", "gutenberg.org"]

  /// `url` moved to the mirror when it is a Project Gutenberg file; other URLs unchanged.
  public func rewrite(_ url: URL) -> URL {
    guard let host = url.host?.lowercased(), Self.gutenbergHosts.contains(host) else { return url }
    var prefix = base.absoluteString
    while prefix.hasSuffix("/") { prefix.removeLast() }
    var path = url.path
    if let query = url.query { path += "?" + query }
    return URL(string: prefix + path) ?? url
  }
}
