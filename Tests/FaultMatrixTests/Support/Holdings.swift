import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import Testing

@testable import TestSupport

/// A data directory holding one of everything a hostile input must leave as it was (issue 35):
/// a favourite (book 84) with a bookmark and its note, a download in the library (book 84's
/// text, from a loopback mirror), and the catalogue the local source answers from; with the
/// means to check, after the fault, that each is still there and the same.
struct Holdings {
  /// The API (by default the embedded catalogue: a sync finds nothing new) and the mirror
  /// (84's text).
  let server: LoopbackServer
  let url: URL
  let app: Gutenberg
  /// What `favorites list`, `bookmarks --json` and `library --json` printed after seeding.
  let favourites: String
  let bookmarks: String
  let library: String
  /// `show 84 --json --source local` after seeding: the catalogue as it answered.
  let book84: String

  /// The import document that seeds the favourite and its bookmark.
  static func document() throws -> Data {
    let book = try #require(try EmbeddedCatalogue.load().bookJSON(id: 84))
    let stamp = "2025-01-02T03:04:05Z"
    return Data(
      (#"{"format":"gutenberg-favorites","version":2,"favorites":[{"added_at":"\#(stamp)","#
        + #""book":\#(String(decoding: book, as: UTF8.self)),"bookmarks":[{"key":"b-storm","#
        + #""byte_offset":120,"created_at":"\#(stamp)","note":"the storm","quote":"Frankenstein","#
        + #""updated_at":"\#(stamp)"}]}]}"#).utf8)
  }

  static func seed(api: (any Requestable)? = nil) async throws -> Holdings {
    let server = LoopbackServer(handler: try api ?? EmbeddedCatalogue.load(), port: 0)
    let url = try await server.start()
    try BookFiles.serveText(id: 84, on: server)
    let app = try Gutenberg().mirrored(to: url)
    let document = app.root.appendingPathComponent("holdings.json")
    try Self.document().write(to: document)
    let imported = try await app.run(["favorites", "import", document.path])
    try #require(imported.status == 0, "\(imported)")
    let get = try await app.run([
      "get", "84", "--format", "txt", "-o", app.dataDirectory.path + "/",
      "--server", url.absoluteString,
    ])
    try #require(get.status == 0, "\(get)")
    let seeded = try await Self.look(app)
    try #require(seeded.favourites.contains("84\t"), "\(seeded.favourites)")
    try #require(seeded.bookmarks.contains("the storm"), "\(seeded.bookmarks)")
    try #require(seeded.library.contains("/84-"), "\(seeded.library)")
    return Holdings(
      server: server, url: url, app: app, favourites: seeded.favourites,
      bookmarks: seeded.bookmarks,
      library: seeded.library, book84: seeded.book84)
  }

  private static func look(_ app: Gutenberg) async throws -> (
    favourites: String, bookmarks: String, library: String, book84: String
  ) {
    let favourites = try await app.run(["favorites", "list", "--source", "local"])
    let bookmarks = try await app.run(["bookmarks", "--json"])
    let library = try await app.run(["library", "--json"])
    let book84 = try await app.run(["show", "84", "--json", "--source", "local"])
    for run in [favourites, bookmarks, library, book84] {
      try #require(run.status == 0, "\(run)")
    }
    return (favourites.out, bookmarks.out, library.out, book84.out)
  }

  /// Checks that every favourite, bookmark and download is as it was, the book file is there,
  /// and the catalogue answers as it did (or, with `catalogueChanged`, at all).
  func expectIntact(_ name: String, catalogueChanged: Bool = false) async throws {
    let now = try await Self.look(app)
    #expect(now.favourites == favourites, "\(name): favourites")
    #expect(now.bookmarks == bookmarks, "\(name): bookmarks")
    // Each download still there as it was (a test's own `get` may add one).
    let before = try JSONSerialization.jsonObject(with: Data(library.utf8)) as? [NSDictionary]
    let after = try JSONSerialization.jsonObject(with: Data(now.library.utf8)) as? [NSDictionary]
    #expect(
      (before ?? []).allSatisfy { (after ?? []).contains($0) } && !(before ?? []).isEmpty,
      "\(name): library \(now.library)")
    if !catalogueChanged { #expect(now.book84 == book84, "\(name): the catalogue changed") }
    let files = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(files.contains { $0.hasPrefix("84-") && $0.hasSuffix(".txt") }, "\(name): \(files)")
  }

  /// Stops the server and removes the data directory.
  func finish() async {
    await server.stop()
    app.cleanUp()
  }

  /// Runs `body` on freshly seeded holdings, then finishes them whatever happened.
  static func with(
    api: (any Requestable)? = nil, _ body: (Holdings) async throws -> Void
  ) async throws {
    let holdings = try await seed(api: api)
    do {
      try await body(holdings)
    } catch {
      await holdings.finish()
      throw error
    }
    await holdings.finish()
  }
}
