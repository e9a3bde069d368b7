import Foundation
import GutendexEngine
import GutendexServer
import Testing

@testable import TestSupport

/// `--language` and the browser's `lang` resolve codes against the catalogue the user has, not
/// the fixed list of the 2025-08 snapshot: the real binary syncs, from a loopback server, books
/// in languages the snapshot lacks, then finds them with its local catalogue alone.
@Suite(.serialized)
struct SyncedLanguageTests {
  struct World {
    /// The server: the snapshot's newest books and the two new ones (a sync walks from the
    /// newest down to the first page it already has, so older books are never asked for).
    var engine: GutendexEngine
    /// A new book in Toki Pona (`tok`), a code the snapshot has no book in.
    var tokiPona: (id: Int, title: String)
    /// A new book in `ger`, which begins "German": refused as an abbreviation until the
    /// catalogue has it.
    var ger: (id: Int, title: String)
  }

  static let world: World? = try? makeWorld()

  static func makeWorld() throws -> World {
    let embedded = try EmbeddedCatalogue.load()
    let newest = embedded.bookIDs.suffix(64).compactMap { embedded.bookJSON(id: $0) }
    let firstID = try SyncFixture.embeddedMaxID() + 1
    var added: [Data] = []
    var books: [(id: Int, title: String)] = []
    for (data, language) in zip(try SyncFixture.newBooks(2, firstID: firstID), ["tok", "ger"]) {
      var object = try HarnessFailure.unwrap(
        try JSONSerialization.jsonObject(with: data) as? [String: Any], "a new book is no object")
      object["languages"] = [language]
      added.append(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
      let id = try HarnessFailure.unwrap(object["id"] as? Int, "a new book without an id")
      let title = try HarnessFailure.unwrap(object["title"] as? String, "a book without a title")
      books.append((id, title))
    }
    return World(
      engine: try GutendexEngine(books: newest + added), tokiPona: books[0], ger: books[1])
  }

  @Test func aLanguageOnlySyncedBooksHaveIsFoundLocallyInListNewAndTheBrowser() async throws {
    let world = try #require(Self.world, "the fixture world could not be built")
    let server = LoopbackServer(handler: world.engine, port: 0)
    let url = try await server.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let before = try await app.run(["--source", "local", "list", "--language", "ger", "--json"])
    let sync = try await app.run(["sync", "--server", url.absoluteString], timeout: .seconds(120))
    await server.stop()
    let toki = try await app.run(["--source", "local", "list", "--language", "tok"])
    let ger = try await app.run(["--source", "local", "list", "--language", "GER"])
    let new = try await app.run(["new", "--language", "tok"])
    let browsed = try await app.run(["--source", "local"], input: "lang ger\nq\n")

    // Before the sync nothing has `ger`: it is German's ISO 639-2 code, Gutendex's `de`.
    #expect(before.status == 0, "\(before)")
    #expect(before.out.contains("\"languages\":[\"de\"]"), "\(before)")
    #expect(!before.out.contains(world.ger.title), "\(before)")
    #expect(sync.status == 0, "\(sync)")
    #expect(toki.status == 0, "\(toki)")
    #expect(toki.outLines.map { $0.prefix { $0 != "\t" } } == ["\(world.tokiPona.id)"], "\(toki)")
    #expect(ger.status == 0, "\(ger)")
    #expect(ger.outLines.map { $0.prefix { $0 != "\t" } } == ["\(world.ger.id)"], "\(ger)")
    #expect(new.status == 0, "\(new)")
    #expect(new.outLines.map { $0.prefix { $0 != "\t" } } == ["\(world.tokiPona.id)"], "\(new)")
    #expect(browsed.status == 0, "\(browsed)")
    #expect(!browsed.out.contains("unknown language"), "\(browsed)")
    #expect(browsed.unwrapped.contains("lang ger · "), "\(browsed)")
    #expect(browsed.unwrapped.contains(world.ger.title.prefix(20)), "\(browsed)")
  }

  /// A code no book has is asked for and finds nothing (the server takes any code); a
  /// misspelled name is still refused with the nearest language.
  @Test func anUnknownCodeFindsNothingAndAMisspelledNameIsRefused() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let none = try await app.run(["--source", "local", "list", "--language", "zz", "--json"])
    let misspelled = try await app.run(["--source", "local", "list", "--language", "englsh"])
    let abbreviated = try await app.run(["--source", "local", "list", "--language", "tag"])
    let iso = try await app.run(["--source", "local", "list", "--language", "ger", "--json"])

    #expect(none.status == 0, "\(none)")
    let page = try #require(
      try JSONSerialization.jsonObject(with: none.stdout) as? [String: Any], "\(none)")
    #expect(page["count"] as? Int == 0, "\(none)")
    #expect((page["results"] as? [Any])?.isEmpty == true, "\(none)")
    #expect(misspelled.status == 64, "\(misspelled)")
    #expect(
      misspelled.err.contains("unknown language 'englsh'; did you mean en (English)"),
      "\(misspelled)")
    #expect(abbreviated.status == 64, "\(abbreviated)")
    #expect(
      abbreviated.err.contains("unknown language 'tag'; did you mean tl (Tagalog)"),
      "\(abbreviated)")
    // An ISO 639-2 code is the language's Gutendex code.
    #expect(iso.status == 0, "\(iso)")
    let german = try #require(
      try JSONSerialization.jsonObject(with: iso.stdout) as? [String: Any], "\(iso)")
    #expect((german["count"] as? Int ?? 0) > 1_000, "\(iso)")
  }
}
