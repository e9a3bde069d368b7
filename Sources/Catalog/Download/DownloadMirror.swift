import Foundation

/// A Project Gutenberg mirror: file URLs on www.gutenberg.org are fetched from it instead
/// (`--mirror`, `GUTENBERG_MIRROR`), the way PG asks heavy users to do.
public struct DownloadMirror: Sendable, Hashable {
  /// The mirror's base URL; the file's path is appended to its path.
  public var base: URL
  /// How the mirror lays out the files below its base.
  public var layout: Layout

  /// How a mirror lays out Project Gutenberg's files.
  public enum Layout: Sendable, Hashable {
    /// At the path www.gutenberg.org serves them under (`/ebooks/84.epub3.images`).
    case sameAsGutenberg
    /// PG's own mirror tree: generated editions under `/cache/epub/N/` (`pg84-images-3.epub`)
    /// and the posted files under their numbered folders (`/files/84/84-0.txt` is
    /// `/8/84/84-0.txt`), as aleph.pglaf.org and the mirrors that copy it hold them.
    case gutenbergTree
  }

  /// A mirror at `text`, which must be an http(s) URL with a host; one of PG's own mirror
  /// hosts is read in PG's mirror tree, any other at www's paths.
  public init?(_ text: String) {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host?.lowercased(), !host.isEmpty
    else { return nil }
    base = url
    layout = Self.treeHosts.contains(host) ? .gutenbergTree : .sameAsGutenberg
  }

  /// The hosts of Project Gutenberg's own mirror tree (PGLAF's).
  static let treeHosts: Set<String> = [
    "aleph.pglaf.org", "aleph.gutenberg.org", "gutenberg.pglaf.org",
  ]

  /// Where a `get` of several books fetches their files when no mirror is named: Project
  /// Gutenberg asks that bulk downloads go to its mirrors, not to www.gutenberg.org.
  public static let bulkDefault: [DownloadMirror] = [DownloadMirror("https://aleph.pglaf.org")]
    .compactMap { $0 }

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
    var path = layout == .gutenbergTree ? Self.treePath(url.path) : url.path
    if let query = url.query { path += "?" + query }
    return URL(string: prefix + path) ?? url
  }

  /// Where PG's mirror tree holds the file www.gutenberg.org serves at `path`; `path` itself
  /// when the tree holds it there too (`/cache/epub/…`) or the path is not one of PG's.
  static func treePath(_ path: String) -> String {
    let parts = path.split(separator: "/")
    if parts.count == 2, parts[0] == "ebooks", let dot = parts[1].firstIndex(of: "."),
      let id = Int(parts[1][..<dot]), id > 0
    {
      let edition = parts[1][parts[1].index(after: dot)...]
      guard let suffix = editionFiles[String(edition)] else { return path }
      return "/cache/epub/\(id)/pg\(id)\(suffix)"
    }
    if parts.count >= 3, parts[0] == "files", let id = Int(parts[1]), id > 0 {
      // Book 84's folder is 8/84, book 1342's 1/3/4/1342, book 5's 0/5.
      let digits = String(id).dropLast()
      let folders = digits.isEmpty ? "0" : digits.map(String.init).joined(separator: "/")
      return "/\(folders)/\(id)/" + parts[2...].joined(separator: "/")
    }
    return path
  }

  /// The name ending of each edition www serves at `/ebooks/N.EDITION`, in the mirror tree's
  /// `/cache/epub/N/pgN…`.
  static let editionFiles: [String: String] = [
    "epub3.images": "-images-3.epub", "epub.images": "-images.epub", "epub.noimages": ".epub",
    "epub": ".epub", "kf8.images": "-images-kf8.mobi", "kindle.images": "-images.mobi",
    "kindle.noimages": ".mobi", "mobi": ".mobi", "txt.utf-8": ".txt", "txt": ".txt",
    "html.images": "-images.html", "html.noimages": ".html", "html": "-images.html",
    "rdf": ".rdf",
  ]
}
