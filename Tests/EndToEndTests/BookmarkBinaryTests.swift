import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Bookmarks and the reading position with the real binary: `b note` in the reader, `g bN`,
/// `gutenberg bookmarks`, a re-issued file (a changed header moves every offset), a file whose
/// text changed, and an export/import round trip into a fresh data directory.
@Suite(.serialized, .ownThread)
struct BookmarkBinaryTests {
  static let title = "Frankenstein; Or, The Modern Prometheus"

  /// A PG-style text of 400 distinct numbered lines after a header of `headerLines` lines.
  static func book(headerLines: Int = 2, word: String = "story") -> Data {
    let header = (1...headerLines).map { "Header line \($0) of the Project Gutenberg eBook" }
    let body = (1...400).map { String(format: "Line %04d of the \(word), with words.", $0) }
    let text =
      (["The Project Gutenberg eBook of Frankenstein"] + header
      + ["", "*** START OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***", ""] + body
      + ["", "*** END OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***", "", "Licence."])
      .joined(separator: "\r\n") + "\r\n"
    return Data(text.utf8)
  }

  /// The rows of each page the reader printed (status lines and notes in parentheses left out).
  static func pages(_ run: Gutenberg.Run) -> [[String]] {
    var pages: [[String]] = []
    var rows: [String] = []
    for line in run.outLines {
      if line.hasPrefix(title + " · line") {
        pages.append(rows)
        rows = []
      } else if !line.hasPrefix("("), !line.hasPrefix("bookmarked"), !line.hasPrefix("b1") {
        rows.append(line)
      }
    }
    return pages
  }

  /// The one downloaded file of book 84 in `app`'s library.
  static func bookFile(_ app: Gutenberg) throws -> URL {
    let books = app.dataDirectory.appendingPathComponent("books")
    let names = try FileManager.default.contentsOfDirectory(atPath: books.path)
      .filter { $0.hasPrefix("84-") && $0.hasSuffix(".txt") }
    #expect(names.count == 1, "\(names)")
    return books.appendingPathComponent(try #require(names.first))
  }

  /// Reads book 84, goes to 50%, bookmarks it with `note` and quits; returns the first row of
  /// the bookmarked page.
  static func markHalfway(_ app: Gutenberg, server: URL, note: String) async throws -> String {
    let run = try await app.run(
      ["read", "84", "--pager", "--server", server.absoluteString],
      input: "g 50%\nb \(note)\nq\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.out.contains("bookmarked b1 at "), "\(run)")
    let pages = Self.pages(run)
    #expect(pages.count == 2, "\(run)")
    return try #require(pages.last?.first, "\(run)")
  }

  static func configured(_ app: Gutenberg, server: URL) -> Gutenberg {
    var app = app.mirrored(to: server)
    app.extraEnvironment["COLUMNS"] = "80"
    app.extraEnvironment["LINES"] = "24"
    return app
  }

  @Test func aBookmarkAndThePlaceAreFoundAgainInAReissuedFile() async throws {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: Self.book(), on: server.server)
    let app = Self.configured(try Gutenberg(), server: server.url)
    defer { app.cleanUp() }
    let marked = try await Self.markHalfway(app, server: server.url, note: "the storm")
    #expect(marked.hasPrefix("Line 0"), "\(marked)")

    let listed = try await app.run(["bookmarks", "84"])
    #expect(listed.status == 0, "\(listed)")
    let fields = try #require(listed.outLines.first).split(separator: "\t").map(String.init)
    #expect(fields.count == 6, "\(listed)")
    #expect(Array(fields.prefix(2)) == ["84", "b1"], "\(listed)")
    #expect(fields[4] == "the storm", "\(listed)")
    #expect(fields[5].hasPrefix(marked), "the quote is the words of the page's top: \(listed)")

    // Project Gutenberg re-issues the file: the same text under a longer header, so every
    // byte offset saved before now points 3 kB too early.
    try Self.book(headerLines: 60).write(to: try Self.bookFile(app))
    let reopened = try await app.run(
      ["read", "84", "--pager", "--server", server.url.absoluteString], input: "q\n")
    #expect(reopened.status == 0, "\(reopened)")
    #expect(Self.pages(reopened).first?.first == marked, "the same place: \(reopened)")
    #expect(reopened.err.contains("your place was found again"), "\(reopened)")

    let jumped = try await app.run(
      ["read", "84", "--pager", "--server", server.url.absoluteString],
      input: "g 1\ng b1\nbookmarks\nq\n")
    #expect(jumped.status == 0, "\(jumped)")
    #expect(Self.pages(jumped).last?.first == marked, "g b1 goes to the bookmark: \(jumped)")
    #expect(
      jumped.outLines.contains { $0.hasPrefix("b1  ") && $0.contains("%  “\(marked.prefix(20))") },
      "\(jumped)")
    #expect(jumped.outLines.contains { $0.hasSuffix("— the storm") }, "\(jumped)")

    let removed = try await app.run(
      ["read", "84", "--pager", "--server", server.url.absoluteString], input: "b -1\nq\n")
    #expect(removed.out.contains("removed b1: “\(marked.prefix(20))"), "\(removed)")
    let none = try await app.run(["bookmarks", "84", "--json"])
    #expect(none.status == 0 && none.out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    await server.stop()
  }

  @Test func aPlaceWhoseWordsAreGoneIsSaidNotJumpedTo() async throws {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: Self.book(), on: server.server)
    let app = Self.configured(try Gutenberg(), server: server.url)
    defer { app.cleanUp() }
    _ = try await Self.markHalfway(app, server: server.url, note: "gone")

    // Another text under the same name: the saved words are nowhere in it.
    try Self.book(headerLines: 60, word: "tale").write(to: try Self.bookFile(app))
    let run = try await app.run(
      ["read", "84", "--pager", "--server", server.url.absoluteString], input: "g b1\nq\n")
    #expect(run.status == 0, "\(run)")
    #expect(
      run.err.contains("your place (“Line 0")
        && run.err.contains("is not in it; opening at the start"),
      "\(run)")
    #expect(Self.pages(run).first?.first == "Line 0001 of the tale, with words.", "\(run)")
    #expect(run.err.contains("b1's place (“Line 0"), "\(run)")
    #expect(run.err.contains("is not in this file (it changed); not moved"), "\(run)")
    #expect(Self.pages(run).count == 1, "g b1 drew no page: \(run)")
    await server.stop()
  }

  @Test func bookmarksAndThePlaceTravelWithTheFavouritesIntoAFreshDataDirectory() async throws {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: Self.book(), on: server.server)
    let first = Self.configured(try Gutenberg(), server: server.url)
    defer { first.cleanUp() }
    let serverOption = ["--server", server.url.absoluteString]
    #expect(try await first.run(["favorites", "add", "84"] + serverOption).status == 0)
    let marked = try await Self.markHalfway(first, server: server.url, note: "read this again")
    let document = first.root.appendingPathComponent("favourites.json")
    let exported = try await first.run(["favorites", "export", "-o", document.path])
    #expect(exported.status == 0, "\(exported)")
    let text = try String(contentsOf: document, encoding: .utf8)
    #expect(text.hasSuffix("\"version\": 2\n}\n"), "\(text)")

    let second = Self.configured(try Gutenberg(), server: server.url)
    defer { second.cleanUp() }
    let imported = try await second.run(["favorites", "import", document.path])
    #expect(imported.status == 0, "\(imported)")
    #expect(
      imported.err.contains("1 added") && imported.err.contains("bookmarks: 1 added, 0 updated")
        && imported.err.contains("1 reading position taken"), "\(imported)")
    let before = try await first.run(["bookmarks", "--json"])
    let after = try await second.run(["bookmarks", "--json"])
    #expect(after.status == 0, "\(after)")
    #expect(after.out == before.out, "every bookmark restored as it was")

    // The fresh directory downloads the book and opens it where the first stopped.
    let reopened = try await second.run(
      ["read", "84", "--pager"] + serverOption, input: "q\n")
    #expect(Self.pages(reopened).first?.first == marked, "\(reopened)")

    // The importing side's newer note is kept when the older document comes again, and
    // nothing is added twice.
    let renote = try await second.run(
      ["read", "84", "--pager"] + serverOption, input: "b a newer note\nq\n")
    #expect(renote.out.contains("b1: note changed"), "\(renote)")
    let again = try await second.run(["favorites", "import", document.path])
    #expect(again.status == 0, "\(again)")
    #expect(!again.err.contains("bookmarks:"), "nothing newer to take: \(again)")
    let kept = try await second.run(["bookmarks", "84"])
    #expect(kept.outLines.count == 1, "\(kept)")
    #expect(kept.out.contains("\ta newer note\t"), "\(kept)")
    await server.stop()
  }
}
