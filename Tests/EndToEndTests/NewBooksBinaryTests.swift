import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import Testing

@testable import TestSupport

/// `gutenberg new` and the line after a sync, the real binary against a loopback server that
/// holds the embedded catalogue plus 40 new releases, one of whose authors a favourite has.
@Suite(.serialized)
struct NewBooksBinaryTests {
  struct World {
    var engine: GutendexEngine
    var newBooks: [Book]
    /// A book of the embedded catalogue whose author wrote some of the new ones.
    var favorite: Book
  }

  /// Built once: the server's books, the new ones, and the favourite to keep.
  static let world: World? = try? makeWorld()

  static func makeWorld() throws -> World {
    let firstID = try SyncFixture.embeddedMaxID() + 1
    let added = try SyncFixture.newBooks(40, firstID: firstID, seed: 3)
    let newBooks = try added.map { try Book.decode(from: $0) }
    let embedded = try EmbeddedCatalogue.load()
    // A template is a real book of the snapshot: a favourite sharing its authors with a new book.
    var favorite: Book?
    for template in try SyncFixture.templates() {
      guard let id = template["id"] as? Int, let json = embedded.bookJSON(id: id) else { continue }
      let book = try Book.decode(from: json)
      let names = Set(book.authors.map(\.name))
      guard !names.isEmpty, !names.contains("Various") else { continue }
      if newBooks.contains(where: { $0.authors.contains { names.contains($0.name) } }) {
        favorite = book
        break
      }
    }
    return World(
      engine: try SyncFixture.server(embedded: SyncFixture.embeddedBooks(), upserting: added),
      newBooks: newBooks,
      favorite: try HarnessFailure.unwrap(favorite, "no template shares an author with a new book"))
  }

  static func start() async throws -> (LoopbackServer, URL, World) {
    let world = try #require(world, "the fixture world could not be built")
    let server = LoopbackServer(handler: world.engine, port: 0)
    return (server, try await server.start(), world)
  }

  /// The new books by the favourite's authors, newest first.
  static func byKeptAuthors(_ world: World) -> [Int] {
    let names = Set(world.favorite.authors.map(\.name))
    return world.newBooks.filter { $0.authors.contains { names.contains($0.name) } }.map(\.id)
      .sorted(by: >)
  }

  @Test func newListsTheSyncedBooksWithTheAuthorYouKeepFirst() async throws {
    let (server, url, world) = try await Self.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let before = try await app.run(["new"])
    let kept = try await app.run(["--source", "local", "favorites", "add", "\(world.favorite.id)"])
    let sync = try await app.run(["sync", "--server", url.absoluteString], timeout: .seconds(120))
    let listed = try await app.run(["new", "--all"])
    // `new` has shown them: from now on the last sync's books are asked for by --since.
    let unseen = try await app.run(["new"])
    let paged = try await app.run(["new", "--since", "last-sync"])
    let json = try await app.run(["new", "--json", "--since", "last-sync"])
    let language = try #require(world.newBooks.first?.languages.first)
    let filtered = try await app.run(
      ["new", "--all", "--since", "last-sync", "--language", language])
    let again = try await app.run(["sync", "--server", url.absoluteString], timeout: .seconds(120))
    let nothing = try await app.run(["new"])
    let since = try await app.run(["new", "--all", "--since", "2020-01-01"])
    await server.stop()

    #expect(before.status == 0 && before.out.isEmpty, "\(before)")
    #expect(before.err.contains("nothing new since") && before.err.contains("not synced"))
    #expect(kept.status == 0, "\(kept)")
    let authors = Self.byKeptAuthors(world)
    #expect(!authors.isEmpty)
    // The sync's summary stays the one line of standard output; what arrived is on stderr.
    #expect(sync.status == 0 && sync.outLines.count == 1, "\(sync)")
    let arrival = try #require(sync.errLines.last, "\(sync)")
    #expect(arrival.hasPrefix("40 new books, \(authors.count) by authors you keep"), "\(sync)")
    #expect(arrival.hasSuffix(": gutenberg new"), "\(sync)")

    #expect(listed.status == 0, "\(listed)")
    let rows = listed.outLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    #expect(rows.count == 40, "\(listed)")
    #expect(rows.allSatisfy { $0.count == 8 }, "\(listed)")
    let ids = rows.compactMap { Int($0[0]) }
    #expect(Set(ids) == Set(world.newBooks.map(\.id)), "\(listed)")
    // The author you keep first, with the reason; then subjects and shelves; then the rest.
    #expect(Array(ids.prefix(authors.count)) == authors, "\(listed)")
    let name = try #require(world.favorite.authors.first?.name)
    #expect(
      rows.prefix(authors.count).allSatisfy {
        $0[7].hasPrefix("by an author you keep: ") && $0[7].contains(name)
      }, "\(listed)")
    let rest = rows.dropFirst(authors.count)
    #expect(rest.allSatisfy { !$0[7].hasPrefix("by an author") }, "\(listed)")
    let reasonless = rest.drop { !$0[7].isEmpty }
    #expect(reasonless.allSatisfy { $0[7].isEmpty }, "\(listed)")
    let restIDs = reasonless.compactMap { Int($0[0]) }
    #expect(restIDs == restIDs.sorted(by: >), "\(listed)")

    // Once shown, they are no longer new to you.
    #expect(unseen.status == 0 && unseen.out.isEmpty, "\(unseen)")
    #expect(unseen.err.contains("nothing new since"), "\(unseen)")

    // Without --all, the first page of 32, as `list` prints, and a note of the rest.
    #expect(paged.status == 0 && paged.outLines == listed.outLines.prefix(32).map { $0 })
    #expect(paged.err.contains("the first 32 of 40 new books; --all lists every one"), "\(paged)")

    let object = try #require(
      try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any], "\(json)")
    #expect(object["count"] as? Int == 40 && object["since_last_sync"] as? Bool == true)
    let results = try #require(object["results"] as? [[String: Any]])
    #expect(results.count == 32, "\(json)")
    let first = try #require(results.first)
    #expect((first["reason"] as? [String: Any])?["kind"] as? String == "author", "\(first)")
    #expect((first["book"] as? [String: Any])?["id"] as? Int == authors.first)

    let expected = world.newBooks.filter { $0.languages.contains(language) }.count
    #expect(filtered.status == 0 && filtered.outLines.count == expected, "\(filtered)")

    #expect(again.status == 0 && !again.err.contains("new books,"), "\(again)")
    #expect(nothing.status == 0 && nothing.out.isEmpty, "\(nothing)")
    #expect(
      nothing.err.hasPrefix("nothing new since ") && nothing.err.contains("(new to you)"))
    #expect(since.status == 0 && since.outLines.count == 40, "\(since)")
  }

  /// A damaged state file or index after a sync: `new` says so in one note and lists nothing
  /// (exit 0, as `list` answers from the embedded catalogue), and the next sync rebuilds the
  /// catalogue, after which the books it recorded as new are listed again.
  @Test func aDamagedLocalCatalogueIsOneNoteAndTheNextSyncRebuildsIt() async throws {
    let (server, url, world) = try await Self.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let sync = try await app.run(["sync", "--server", url.absoluteString], timeout: .seconds(120))
    try #require(sync.status == 0, "\(sync)")
    let catalogue = app.dataDirectory.appendingPathComponent("catalogue")
    let stateFile = catalogue.appendingPathComponent("state.json")
    let state = try Data(contentsOf: stateFile)
    try Data("{\"garbage".utf8).write(to: stateFile)
    let badState = try await app.run(["new", "--all"])
    // The state is whole again, but the delta index it names is not.
    try state.write(to: stateFile)
    let names = try FileManager.default.contentsOfDirectory(atPath: catalogue.path)
    let delta = try #require(names.first { $0.hasPrefix("delta-") }, "\(names)")
    try Data(repeating: 0x5A, count: 4096).write(to: catalogue.appendingPathComponent(delta))
    let badIndex = try await app.run(["new", "--all"])
    let rebuilt = try await app.run(
      ["sync", "--server", url.absoluteString], timeout: .seconds(120))
    let listed = try await app.run(["new", "--all", "--since", "2020-01-01"])
    await server.stop()

    for run in [badState, badIndex] {
      #expect(run.status == 0 && run.out.isEmpty, "\(run)")
      let note = try #require(run.errLines.first, "\(run)")
      #expect(note.hasPrefix("note: the local catalogue is damaged ("), "\(run)")
      #expect(note.hasSuffix("until the next sync rebuilds it (gutenberg sync)"), "\(run)")
      #expect(run.errLines.dropFirst().allSatisfy { $0.hasPrefix("nothing new since ") }, "\(run)")
      #expect(!run.err.contains("not synced yet"), "\(run)")
    }
    #expect(badState.err.contains("state.json"), "\(badState)")
    #expect(rebuilt.status == 0, "\(rebuilt)")
    #expect(listed.status == 0 && listed.outLines.count == world.newBooks.count, "\(listed)")
  }

  @Test(arguments: ["yesterday", "2025-13-01", "2999-01-01", "7", "3x", "2026-11-20T25:00:00Z"])
  func aSinceThatMeansNothingIsOneLineAndExit64(_ text: String) async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let run = try await app.run(["new", "--since", text])
    #expect(run.status == 64, "\(run)")
    #expect(run.errLines.count == 1 && run.err.hasPrefix("error: --since: "), "\(run)")
    #expect(run.out.isEmpty, "\(run)")
  }

  /// The browser's background sync says what arrived in one line, and `new` at the prompt lists
  /// the books with the reason.
  @Test func theBackgroundSyncSaysWhatArrivedAndNewAtThePromptListsIt() async throws {
    let (server, url, world) = try await Self.start()
    var app = try Gutenberg()
    app.extraEnvironment["GUTENBERG_SYNC_INTERVAL"] = "1h"
    defer { app.cleanUp() }
    let kept = try await app.run(["--source", "local", "favorites", "add", "\(world.favorite.id)"])
    let child = try app.start(["--server", url.absoluteString])
    let authors = Self.byKeptAuthors(world).count
    let line = "40 new books, \(authors) by authors you keep"
    let arrived = await child.waitForOutput(timeout: .seconds(120)) {
      $0.contains(line) && $0.contains(": type new")
    }
    await child.send("new")
    let name = try #require(world.favorite.authors.first?.name)
    let listed = await child.waitForOutput(timeout: .seconds(120)) {
      $0.contains("by an author you keep: \(name)")
    }
    await child.send("q")
    let exit = await child.wait(timeout: .seconds(60))
    await server.stop()

    #expect(kept.status == 0, "\(kept)")
    #expect(arrived, "no '\(line) …: type new' line: \(child.stdoutText.suffix(2000))")
    #expect(listed, "new did not list the kept author's books: \(child.stdoutText.suffix(3000))")
    #expect(exit.code == 0, "\(exit)")
  }
}
