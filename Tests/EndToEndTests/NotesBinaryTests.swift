import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Highlights and notes with the real binary: `hl` in the reader (piped line mode), `gutenberg
/// notes` as lines, TSV and Markdown, and their way through `favorites export` and `favorites
/// import` into a fresh data directory for a book that is not a favourite.
@Suite(.serialized, .ownThread)
struct NotesBinaryTests {
  static let sentence =
    "It was on a dreary night of November that I beheld the accomplishment of my toils."

  /// A PG-style text of two chapters of numbered lines, the sentence in the second.
  static func book() -> Data {
    let first = (1...60).map { String(format: "Line %04d of the first chapter.", $0) }
    let second = (1...60).map { String(format: "Line %04d of the second chapter.", $0) }
    let text =
      ([
        "The Project Gutenberg eBook of Frankenstein", "",
        "*** START OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***", "", "CHAPTER I.", "",
      ] + first + ["", "CHAPTER II.", ""] + second.prefix(20) + ["", sentence, ""]
      + second.dropFirst(20)
      + ["", "*** END OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***", "", "Licence."])
      .joined(separator: "\n") + "\n"
    return Data(text.utf8)
  }

  static func configured(_ app: Gutenberg, server: URL) -> Gutenberg {
    var app = app.mirrored(to: server)
    app.extraEnvironment["COLUMNS"] = "80"
    app.extraEnvironment["LINES"] = "24"
    return app
  }

  @Test func aHighlightAndItsNoteSurviveExportAndImportForABookThatIsNotAFavourite()
    async throws
  {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: Self.book(), on: server.server)
    let first = Self.configured(try Gutenberg(), server: server.url)
    defer { first.cleanUp() }
    let serverOption = ["--server", server.url.absoluteString]
    let read = try await first.run(
      ["read", "84", "--pager"] + serverOption,
      input: "/dreary night\nhl /It was on/ /my toils./ the creature wakes\n/first chapter\nhl\nq\n"
    )
    #expect(read.status == 0, "\(read)")
    #expect(read.out.contains("highlighted b1 in CHAPTER II.: “It was on a dreary"), "\(read)")
    #expect(read.out.contains("highlighted b1 in CHAPTER I.: “first chapter”"), "\(read)")

    let markdown = try await first.run(["notes", "84", "--markdown"])
    #expect(markdown.status == 0, "\(markdown)")
    #expect(markdown.out.hasPrefix("# Frankenstein"), "\(markdown)")
    #expect(
      markdown.out.contains(
        "\n> \(Self.sentence)\n\nthe creature wakes\n\n— *CHAPTER II.* · `gutenberg read 84 --at "),
      "\(markdown)")
    #expect(markdown.out.contains("\n> first chapter\n\n— *CHAPTER I.* · "), "\(markdown)")

    // The command each note gives opens the book at its passage.
    let tsv = try await first.run(["notes", "84"])
    #expect(tsv.status == 0, "\(tsv)")
    let fields = try #require(tsv.outLines.last).split(separator: "\t").map(String.init)
    #expect(fields.count == 9, "\(tsv)")
    #expect(Array(fields.prefix(3)) == ["84", "b2", "highlight"], "\(tsv)")
    #expect(fields[5] == "CHAPTER II." && fields[6] == "the creature wakes", "\(tsv)")
    #expect(fields[8] == "gutenberg read 84 --at \(fields[3])", "\(tsv)")
    let opened = try await first.run(
      ["read", "84", "--pager", "--at", fields[3]] + serverOption, input: "q\n")
    let top = opened.outLines.first { !$0.hasPrefix("(") }
    #expect(top.map { Self.sentence.hasPrefix($0) && $0.count > 40 } == true, "\(opened)")

    let document = first.root.appendingPathComponent("notes.json")
    let exported = try await first.run(["favorites", "export", "-o", document.path])
    #expect(exported.status == 0, "\(exported)")
    let text = try String(contentsOf: document, encoding: .utf8)
    #expect(
      text.contains("\"favourite\": false") && text.hasSuffix("\"version\": 3\n}\n"), "\(text)")

    let second = Self.configured(try Gutenberg(), server: server.url)
    defer { second.cleanUp() }
    let imported = try await second.run(["favorites", "import", document.path])
    #expect(imported.status == 0, "\(imported)")
    #expect(
      imported.err.contains("0 added") && imported.err.contains("bookmarks: 2 added"), "\(imported)"
    )
    // Not downloaded here, not a favourite: the notes are listed from what was kept.
    let favourites = try await second.run(["favorites", "list"])
    #expect(
      favourites.status == 0 && !favourites.outLines.contains { $0.hasPrefix("84\t") },
      "\(favourites)")
    let after = try await second.run(["notes", "84", "--markdown"])
    #expect(after.status == 0, "\(after)")
    #expect(after.out == markdown.out, "the same notes: \(after)")
    let again = try await second.run(["favorites", "import", document.path])
    #expect(again.status == 0 && !again.err.contains("bookmarks:"), "nothing twice: \(again)")
    #expect(try await second.run(["notes"]).outLines.count == 2)
    await server.stop()
  }

  @Test func noNotesSaySoAndBadOptionsAreUsageErrors() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let none = try await app.run(["notes", "84", "--markdown"])
    #expect(
      none.status == 0 && none.out.isEmpty && none.err.contains("book 84 has no notes"), "\(none)")
    let json = try await app.run(["notes", "--json"])
    #expect(json.status == 0 && json.out == "[]\n", "\(json)")
    let both = try await app.run(["notes", "--json", "--markdown"])
    #expect(both.status == 64 && both.err.contains("choose one"), "\(both)")
  }
}
