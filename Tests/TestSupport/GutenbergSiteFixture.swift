import Foundation
import GutendexEngine
import GutendexServer

/// A loopback site laid out as Project Gutenberg's (`--pg-url`): `today.rss`, one RDF record
/// per book at `cache/epub/<id>/pg<id>.rdf`, `pg_catalog.csv.gz` and the feed, each served with
/// an `ETag` and a `Last-Modified` (so conditional requests get 304), and the server's request
/// log. It serves no API: a sync that asked it for `/books/` pages would find none.
public final class GutenbergSiteFixture: Sendable {
  /// The server (its `requests` are the log; its `faults` script a 429).
  public let server: LoopbackServer
  /// Its base URL, for `GUTENBERG_PG_URL`.
  public let url: URL
  /// Where its generated files are written.
  let directory: URL

  /// A site on a free loopback port, with its files under `directory`.
  public init(directory: URL) async throws {
    self.directory = directory
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    server = LoopbackServer(handler: try GutendexEngine(books: []), port: 0)
    url = try await server.start()
  }

  /// The site's files served by `server` (already running at `url`) beside what it serves.
  public init(server: LoopbackServer, url: URL, directory: URL) throws {
    self.directory = directory
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.server = server
    self.url = url
  }

  /// Stops the server.
  public func stop() async {
    await server.stop()
  }

  /// `date` as HTTP and RSS write it (`Sat, 28 Nov 2026 03:00:01 GMT`).
  public static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  /// Publishes `today.rss` naming `ids` (PG's shape: one `<item>` per book, its page as the
  /// link), made at `built`; `version` makes its ETag.
  public func publishRSS(ids: [Int], built: Date, version: Int) {
    var text = """
      <?xml version="1.0" encoding="utf-8" ?>
      <rss version="0.91">
        <channel>
          <title>Project Gutenberg Recently Posted or Updated EBooks</title>
          <link>https://www.gutenberg.org</link>
          <description>
             EBooks posted or updated today on Project Gutenberg.
             This feed is regenerated every night.
          </description>
          <language>en-us</language>
          <pubDate>\(Self.httpDate(built).replacingOccurrences(of: "GMT", with: "+0000"))</pubDate>
          <lastBuildDate>\(Self.httpDate(built))</lastBuildDate>

      """
    for id in ids {
      text += """
            <item>
              <title>Book \(id) by Someone, A. &amp; Other</title>
              <link>https://www.gutenberg.org/ebooks/\(id)</link>
              <description>Language: English</description>
            </item>

        """
    }
    text += "  </channel>\n</rss>\n"
    server.serve(
      ServedFile(
        content: .bytes(Data(text.utf8)), contentType: "application/rss+xml",
        etag: "\"rss-\(version)\"", lastModified: Self.httpDate(built)),
      at: "/cache/epub/feeds/today.rss")
  }

  /// Publishes the record of each of `books` (server-shaped JSON) in PG's RDF shape.
  public func publishRecords(_ books: [Data]) throws {
    for book in books {
      let object = try JSONSerialization.jsonObject(with: book) as? [String: Any]
      let id = try HarnessFailure.unwrap(object?["id"] as? Int, "a book without an id")
      server.serve(
        ServedFile(
          content: .bytes(Data(try FeedGenerator.record(book).utf8)),
          contentType: "application/rdf+xml", etag: "\"pg\(id)\""),
        at: "/cache/epub/\(id)/pg\(id).rdf")
    }
  }

  /// Publishes `pg_catalog.csv.gz` listing `ids` (PG's columns; titles with commas, quotes and
  /// line breaks, as real ones have), made at `made`; `version` makes its ETag.
  public func publishCSV(ids: [Int], made: Date, version: Int) async throws {
    var text = "Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves\n"
    for id in ids {
      let title =
        id % 3 == 0 ? "\"Title \(id), with a \"\"quote\"\"\nand a second line\"" : "Title \(id)"
      text +=
        "\(id),Text,2025-01-0\(id % 9 + 1),\(title),en,\"Author, Some, 1800-1870\","
        + "\"Fiction; Testing -- \(id)\",PR,\"Category: Novels\"\n"
    }
    let plain = directory.appendingPathComponent("pg_catalog-\(version).csv")
    try Data(text.utf8).write(to: plain)
    let gzip = try ChildProcess(
      executable: try SystemTool.path("gzip"), arguments: ["-9nf", plain.path],
      environment: ["PATH": "/usr/bin:/bin"])
    let exit = await gzip.wait(timeout: .seconds(120))
    try HarnessFailure.check(exit.code == 0, "gzip failed: \(exit)")
    server.serve(
      ServedFile(
        content: .file(plain.appendingPathExtension("gz")), contentType: "application/gzip",
        etag: "\"csv-\(version)\"", lastModified: Self.httpDate(made)),
      at: "/cache/epub/feeds/pg_catalog.csv.gz")
  }

  /// Publishes the whole feed of `books`, made at `made`.
  public func publishFeed(_ books: [Data], made: Date, version: Int) throws {
    let file = directory.appendingPathComponent("rdf-files-\(version).tar.bz2")
    try FeedGenerator.writeFeed(books: books, to: file.path)
    server.serve(
      ServedFile(
        content: .file(file), contentType: "application/x-bzip2", etag: "\"feed-\(version)\"",
        lastModified: Self.httpDate(made)),
      at: "/cache/epub/feeds/rdf-files.tar.bz2")
  }

  /// The paths asked for since the log was last read this way, and clears nothing: callers
  /// count from a mark (`requests.count` before the sync).
  public var requests: [String] { server.requests }
}
