import Foundation
import GutendexEngine
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// `read` of an EPUB with the real binary: `--format epub`, and a book with no plain text,
/// read in the spine's order with its headings as the table of contents, the place kept
/// across a reopen; a truncated EPUB is one line and exit 65.
@Suite(.serialized, .ownThread)
struct EpubBinaryTests {
  /// The sample EPUB's bytes (`SampleEpub`).
  static func sample() throws -> Data {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("epub-binary-\(UUID().uuidString).epub")
    defer { try? FileManager.default.removeItem(at: file) }
    try SampleEpub.write(to: file.path)
    return try Data(contentsOf: file)
  }

  static func served(_ bytes: Data) -> ServedFile {
    ServedFile(content: .bytes(bytes), contentType: "application/epub+zip")
  }

  /// The EPUB of book 84 in the library (`<data>/books`).
  static func libraryEpub(_ app: Gutenberg) throws -> URL {
    let books = app.dataDirectory.appendingPathComponent("books")
    let names = try FileManager.default.contentsOfDirectory(atPath: books.path)
    let name = try #require(names.first { $0.hasSuffix(".epub") }, "no EPUB in \(names)")
    return books.appendingPathComponent(name)
  }

  @Test func anEpubReadsInSpineOrderWithItsContentsAndKeepsItsPlace() async throws {
    let server = try await TestServer.start()
    try BookFiles.serve84(on: server.server, epub: Self.served(try Self.sample()))
    var app = try Gutenberg().mirrored(to: server.url)
    app.extraEnvironment["COLUMNS"] = "60"
    app.extraEnvironment["LINES"] = "20"
    defer { app.cleanUp() }
    let arguments = [
      "read", "84", "--format", "epub", "--pager", "--server", server.url.absoluteString,
    ]
    let first = try await app.run(arguments, input: "toc\ntoc 3\nq\n")
    #expect(first.status == 0, "\(first)")
    #expect(!first.err.contains("error"), "\(first)")
    let lines = first.outLines
    // The first page: the header folded, the first chapter's heading and paragraph, wrapped.
    #expect(lines.contains { $0.hasPrefix("(Project Gutenberg header") }, "\(first)")
    let chapter = try #require(lines.firstIndex(of: "CHAPTER I."), "\(first)")
    #expect(lines[chapter + 1] == "The Beginning")
    #expect(lines.contains("It was the first morning of the voyage, and the sea lay flat"))
    #expect(lines.filter { !$0.hasPrefix("(") }.allSatisfy { $0.count <= 60 }, "\(first)")
    // `toc`: the headings in the spine's order; `toc 3` goes to the third.
    let contents = try #require(lines.firstIndex { $0.hasPrefix("Contents") }, "\(first)")
    #expect(
      Array(lines[(contents + 1)...(contents + 4)]) == [
        "1. CHAPTER I. The Beginning", "2. CHAPTER II.", "3. A Table", "4. CHAPTER III.",
      ], "\(first)")
    let table = try #require(lines.lastIndex(of: "A Table"), "\(first)")
    #expect(lines[table...].contains("  Elizabeth Lavenza   19"), "\(first)")

    // Opened again, it starts where it was left: at the table.
    let second = try await app.run(arguments, input: "q\n")
    #expect(second.status == 0, "\(second)")
    let page = second.outLines.filter { !$0.hasPrefix("(") }
    #expect(page.first == "A Table", "the place kept: \(second)")
    await server.stop()
  }

  /// A book longer than its first page waits for (40 chapters of 24 KiB): the first page comes
  /// from the first documents (`EpubTextTests` shows that page's status line), and the next
  /// command goes on in the whole book, its last chapter and its table of contents there.
  @Test func aLongEpubShowsItsFirstPageBeforeTheRestIsRead() async throws {
    let chapters = (1...40).map { number in
      EpubWriter.File(
        path: "ch\(number).xhtml",
        text: EpubWriter.xhtml(
          title: "\(number)",
          body: "<h2>Chapter \(number)</h2>\n"
            + String(
              repeating:
                "<p>The words of chapter \(number) go on for a while, page after page.</p>\n",
              count: 320)
            + (number == 40 ? "<p>The very last words.</p>" : "")))
    }
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("epub-long-\(UUID().uuidString).epub")
    defer { try? FileManager.default.removeItem(at: file) }
    try EpubWriter.write(
      to: file.path, title: "Long", documents: chapters, spine: chapters.map(\.path))
    let server = try await TestServer.start()
    try BookFiles.serve84(on: server.server, epub: Self.served(try Data(contentsOf: file)))
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let run = try await app.run(
      ["read", "84", "--format", "epub", "--pager", "--server", server.url.absoluteString],
      input: "G\ntoc\nq\n")
    #expect(run.status == 0, "\(run)")
    let statuses = run.outLines.filter { $0.contains(" · line ") }
    #expect(statuses.count == 2, "\(run)")
    // Shown before the rest was read, it has no count nor %; the conversion may win the race.
    #expect(statuses.first?.contains(" · line 1") == true, "\(statuses)")
    #expect(statuses.last?.hasSuffix("100%") == true, "\(statuses)")
    #expect(run.outLines.contains("The very last words."), "\(run)")
    #expect(run.outLines.contains { $0.hasSuffix("40. Chapter 40") }, "\(run)")
  }

  /// `Screens/reader-epub.txt` (the app's first page of the sample EPUB at 80×24) is what the
  /// binary shows, row for row (the status line names the catalogue's title here).
  @Test func theBinaryShowsTheCapturedEpubPage() async throws {
    let capture = try String(
      contentsOf: CaptureBinaryTests.screens.appendingPathComponent("reader-epub.txt"),
      encoding: .utf8
    ).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let server = try await TestServer.start()
    try BookFiles.serve84(on: server.server, epub: Self.served(try Self.sample()))
    var app = try Gutenberg().mirrored(to: server.url)
    app.extraEnvironment["COLUMNS"] = "80"
    app.extraEnvironment["LINES"] = "24"
    defer { app.cleanUp() }
    let run = try await app.run(
      ["read", "84", "--format", "epub", "--pager", "--server", server.url.absoluteString],
      input: "q\n")
    #expect(run.status == 0, "\(run)")
    let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex(of: capture[0]), "\(run)")
    #expect(Array(lines[start..<min(lines.count, start + 22)]) == Array(capture.prefix(22)))
    #expect(lines[start + 22].hasPrefix("Frankenstein; Or, The Modern Prometheus · line 1 of 30"))
    await server.stop()
  }

  @Test func aBookWithNoPlainTextIsReadFromItsEpub() async throws {
    let server = try await TestServer.start(engine: try EmbeddedCatalogue.load())
    // Book 5001 (Einstein's Relativity) has HTML and EPUB editions, no plain text.
    server.server.serve(Self.served(try Self.sample()), at: "/ebooks/5001.epub3.images")
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let run = try await app.run(
      ["read", "5001", "--pager", "--server", server.url.absoluteString], input: "q\n")
    #expect(run.status == 0, "\(run)")
    #expect(run.outLines.contains("CHAPTER I."), "\(run)")
    #expect(run.outLines.contains { $0.hasPrefix("Relativity") && $0.contains(" · line 1") })
    // Piped, the whole text is printed, one paragraph a line.
    let piped = try await app.run(["read", "5001", "--server", server.url.absoluteString])
    #expect(piped.status == 0, "\(piped)")
    #expect(piped.outLines.first == "CHAPTER I.", "\(piped)")
    #expect(piped.outLines.contains("The third chapter's words, the last of the book."))
    #expect(!piped.out.contains("licence"), "\(piped)")
    await server.stop()
  }

  @Test func aTruncatedEpubIsOneLineAndExit65() async throws {
    let server = try await TestServer.start()
    try BookFiles.serve84(on: server.server, epub: Self.served(try Self.sample()))
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let arguments = ["read", "84", "--format", "epub", "--server", server.url.absoluteString]
    let good = try await app.run(arguments, input: "q\n")
    try #require(good.status == 0, "\(good)")
    let file = try Self.libraryEpub(app)
    let bytes = try Data(contentsOf: file)
    try bytes.prefix(bytes.count * 2 / 3).write(to: file)
    for extra in [["--pager"], []] {
      let run = try await app.run(arguments + extra, input: "n\nq\n")
      #expect(run.status == 65, "\(run)")
      #expect(run.out.isEmpty, "nothing paged: \(run)")
      #expect(run.errLines.count == 1, "\(run)")
      #expect(
        run.errLines.last?.hasPrefix(
          "error: cannot read book 84's EPUB: it is not a whole zip archive (cut short, or not a "
            + "zip:") == true, "\(run)")
    }
    await server.stop()
  }
}
