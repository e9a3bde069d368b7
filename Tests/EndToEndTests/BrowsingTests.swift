import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// The interactive browser, driven through standard input against the loopback engine.
@Suite(.serialized, .ownThread)
struct BrowsingTests {
  @Test func nextFavouriteAndFavouritesScreenPersist() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let page2 = try await server.engineIDs("/books/?page=2")
    let pages = (page2.count + 31) / 32
    let id = page2.ids[2]
    let title = try #require(try server.engine.title(of: id))

    let run = try await app.run(["--server", server.url.absoluteString], input: "n\nf 3\nF\nq\n")
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.out.contains("all books · page 1 of \(pages) · \(page2.count) books"), "\(run)")
    #expect(run.out.contains("all books · page 2 of \(pages) · \(page2.count) books"), "\(run)")
    #expect(run.out.contains("Added to favourites: \(title.prefix(20))"), "\(run)")
    #expect(run.out.contains("Favourites · 1 book"), "\(run)")
    #expect(server.server.requests.contains { $0.hasPrefix("/books/?page=2") })
    #expect(try await app.favoriteIDs() == [id])
  }

  /// The server finds what it finds; the line under the list proposes what the embedded
  /// catalogue would, and `'` sends that search to the server.
  @Test func theSuggestionKeyRunsTheProposedSearchOnTheServer() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let asked = try await server.engineIDs("/books/?search=les%20miserables")
    let meant = try await server.engineIDs("/books/?search=les%20mis%C3%A9rables")

    let run = try await app.run(
      ["--server", server.url.absoluteString], input: "/ les miserables\n'\nq\n")
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.err.isEmpty, "\(run)")
    #expect(
      run.outLines.filter { $0.hasPrefix("did you mean") }
        == ["did you mean: les misérables (11 books)? type ' to search it"], "\(run)")
    let noBooks = asked.count == 0 ? "no books" : "page 1 of"
    #expect(run.out.contains("search \"les miserables\" · sort popular · \(noBooks)"), "\(run)")
    // The server's own count for the proposed words, not the embedded catalogue's.
    let found = meant.count == 0 ? "no books" : "page 1 of 1 · \(meant.count) book"
    #expect(run.out.contains("search \"les misérables\" · sort popular · \(found)"), "\(run)")
    #expect(
      server.server.requests.contains { $0.contains("search=les%20mis%C3%A9rables") },
      "\(server.server.requests)")
  }

  @Test func searchFiltersAndSortReachTheServerAndTheScreen() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let french = try await server.engineIDs("/books/?languages=fr")
    let frenchAscending = try await server.engineIDs("/books/?languages=fr&sort=ascending")
    let holmes = try await server.engineIDs("/books/?search=holmes")
    let input = [
      "/ holmes", "reset", "lang fr", "sort ascending", "topic fiction", "years 1800 1900",
      "copyright no", "reset", "q",
    ].joined(separator: "\n")

    let run = try await app.run(["--server", server.url.absoluteString], input: input)
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.err.isEmpty, "\(run)")
    let requests = server.server.requests
    for expected in [
      "search=holmes", "languages=fr", "sort=ascending", "topic=fiction",
      "author_year_start=1800", "author_year_end=1900", "copyright=false",
    ] {
      #expect(
        requests.contains { $0.contains(expected) }, "no request with \(expected): \(requests)")
    }
    #expect(run.out.contains("\(holmes.count) book"), "\(run)")
    #expect(run.out.contains("\(french.count) books"), "\(run)")
    // Sorted ascending, the first French book is the lowest id: its row 1 comes first.
    let firstTitle = try #require(try server.engine.title(of: frenchAscending.ids[0]))
    #expect(run.out.contains(String(firstTitle.prefix(15))), "\(run)")
  }

  @Test func detailsLinksAndStatusScreens() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let first = try await server.engineIDs("/books/")
    let id = first.ids[0]

    let run = try await app.run(
      ["--server", server.url.absoluteString], input: "1\nb\nlinks 1\nb\ns\nq\n")
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.out.contains("Id:           \(id)"), "\(run)")
    #expect(run.out.contains("URL:          https://www.gutenberg.org/ebooks/\(id)"), "\(run)")
    #expect(run.out.contains("Links for \(id) · "), "\(run)")
    #expect(run.out.contains("Server:      \(server.url.absoluteString)"), "\(run)")
    #expect(run.out.contains("Reachable:   yes"), "\(run)")
  }

  @Test func exportThenImportIntoAnotherDataDirectory() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    let other = try Gutenberg()
    defer {
      app.cleanUp()
      other.cleanUp()
    }
    let file = app.root.appendingPathComponent("favourites.json").path

    let run = try await app.run(
      ["--server", server.url.absoluteString], input: "f 1-3\nF\nexport \(file)\nq\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.out.contains("Favourites: 3 added, 0 removed."), "\(run)")
    #expect(run.out.contains(file), "\(run)")
    let exported = try await app.favoriteIDs()
    #expect(exported.count == 3)

    let imported = try await other.run(
      ["--server", server.url.absoluteString], input: "import \(file)\nF\nq\n")
    await server.stop()
    #expect(imported.status == 0, "\(imported)")
    #expect(imported.out.contains("Favourites · 3 books"), "\(imported)")
    #expect(try await other.favoriteIDs().sorted() == exported.sorted())
  }

  /// `~` at the prompt is the home directory (`HOME` is the harness's root).
  @Test func aTildeInAPromptPathIsHome() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let run = try await app.run(
      ["--source", "local"], input: "f 1 2\nexport ~/saved.json\nimport ~/saved.json\nq\n")
    #expect(run.status == 0, "\(run)")
    let file = app.root.appendingPathComponent("saved.json")
    #expect(FileManager.default.fileExists(atPath: file.path), "\(run)")
    #expect(run.unwrapped.contains(file.path), "\(run)")
    #expect(run.unwrapped.contains("Imported from ~/saved.json: 0 added"), "\(run)")
  }

  @Test func badLinesAnswerOneErrorAndKeepTheState() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run(
      ["--server", server.url.absoluteString], input: "n\nfrobnicate\ng 0\nf x\nsort sideways\nq\n")
    await server.stop()

    #expect(run.status == 0, "\(run)")
    let errors = run.outLines.filter { $0.hasPrefix("error: ") }
    #expect(errors.count == 4, "\(run)")
    #expect(errors.first == "error: unknown command 'frobnicate' — type ? for help")
    // Still on page 2: nothing after the bad lines redrew or moved the list.
    #expect(run.out.occurrences(of: "· page 2 of") == 1, "\(run)")
    // Page 1, page 2 and at most the prefetch of page 3: the bad lines asked for nothing.
    let requests = server.server.requests
    #expect(requests.allSatisfy { !$0.contains("page=4") && !$0.contains("page=0") }, "\(requests)")
    #expect(requests.count <= 3, "\(requests)")
  }
}
