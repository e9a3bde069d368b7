import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// `read` with the real binary on texts the line-based pager got wrong: a paragraph kept on one
/// line (as many Project Gutenberg files keep them), and a file that is not text at all.
@Suite(.serialized, .ownThread)
struct ReaderBinaryTests {
  static let title = "Frankenstein; Or, The Modern Prometheus"

  /// A PG-style text whose body is a heading, a paragraph of `words` numbered words on one
  /// line, and a closing line.
  static func oneLineBook(words: Int) -> (text: Data, body: [String]) {
    let paragraph = (1...words).map { "word\($0)" }.joined(separator: " ")
    let body = "Chapter 1\r\n\r\n" + paragraph + "\r\n\r\nThe end.\r\n"
    let text =
      "The Project Gutenberg eBook of Frankenstein\r\n\r\n"
      + "*** START OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***\r\n\r\n" + body
      + "\r\n*** END OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***\r\n\r\nLicence.\r\n"
    return (Data(text.utf8), body.split(whereSeparator: \.isWhitespace).map(String.init))
  }

  @Test func aParagraphOnOneLineIsShownWholeInOrderPageByPage() async throws {
    let book = Self.oneLineBook(words: 400)
    #expect(book.text.count > 3_000)
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: book.text, on: server.server)
    var app = try Gutenberg().mirrored(to: server.url)
    app.extraEnvironment["COLUMNS"] = "80"
    app.extraEnvironment["LINES"] = "24"
    defer { app.cleanUp() }
    let run = try await app.run(
      ["read", "84", "--pager", "--server", server.url.absoluteString],
      input: String(repeating: "n\n", count: 12) + "q\n")
    #expect(run.status == 0, "\(run)")
    let statuses = run.outLines.filter { $0.hasPrefix(Self.title + " · line") }
    #expect(statuses.count >= 2, "the paragraph takes more than one page: \(run)")
    let shown = run.outLines.filter {
      !$0.hasPrefix(Self.title + " · line") && !$0.hasPrefix("(")
    }
    #expect(shown.allSatisfy { $0.count <= 80 }, "\(run)")
    let words = shown.flatMap { $0.split(separator: " ").map(String.init) }
    #expect(words == book.body, "every word once, in order: \(run)")
    #expect(run.out.contains("(end of the book)"), "\(run)")
    await server.stop()
  }

  /// A text file that is not text: a server sending one is refused by the download (issue 35:
  /// nothing saved), and a library file that is not text (put there, or fetched before that
  /// check) by the reader; each in one line, nothing paged.
  @Test func aFileThatIsNotTextIsRefusedInOneLine() async throws {
    let server = try await TestServer.start()
    var bytes = Data("GIF89a".utf8)
    bytes.append(contentsOf: [0, 1, 2, 0xFF, 0xFE] + (0..<2_000).map { UInt8($0 % 256) })
    try BookFiles.serveText(id: 84, text: bytes, on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let fetched = try await app.run(
      ["read", "84", "--server", server.url.absoluteString], input: "n\nq\n")
    #expect(fetched.status == 65, "\(fetched)")
    #expect(fetched.out.isEmpty, "no replacement characters paged: \(fetched)")
    #expect(
      fetched.errLines.last
        == "error: 127.0.0.1 answered with binary data (NUL bytes), not text, not the book's "
        + "file; nothing was kept", "\(fetched)")

    try BookFiles.serveText(id: 84, on: server.server)
    let good = try await app.run(
      ["read", "84", "--server", server.url.absoluteString], input: "q\n")
    try #require(good.status == 0, "\(good)")
    try bytes.write(to: try Self.libraryText(app))
    for arguments in [["--pager"], []] {
      let run = try await app.run(
        ["read", "84", "--server", server.url.absoluteString] + arguments, input: "n\nq\n")
      #expect(run.status == 65, "\(run)")
      #expect(run.out.isEmpty, "no replacement characters paged: \(run)")
      #expect(
        run.errLines.last
          == "error: book 84's file is not text (it has a NUL byte at byte 7); "
          + "open it with another program", "\(run)")
    }
    await server.stop()
  }

  /// The downloaded text of book 84 in the library (`<data>/books`).
  static func libraryText(_ app: Gutenberg) throws -> URL {
    let books = app.dataDirectory.appendingPathComponent("books")
    let names = try FileManager.default.contentsOfDirectory(atPath: books.path)
    let name = try #require(names.first { $0.hasSuffix(".txt") }, "no text in \(names)")
    return books.appendingPathComponent(name)
  }

  /// Another program cuts the file short while the reader shows it (`truncate -s 1000`): the
  /// next command finds the file shorter and closes the book in one line; no SIGBUS.
  @Test func aFileCutShortWhileOpenIsNoticedInOneLine() async throws {
    let book = Self.oneLineBook(words: 40_000)
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: book.text, on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let first = try await app.run(
      ["read", "84", "--pager", "--server", server.url.absoluteString], input: "q\n")
    try #require(first.status == 0, "\(first)")
    let file = try Self.libraryText(app)

    let reader = try app.start(["read", "84", "--pager", "--server", server.url.absoluteString])
    let shown = await reader.waitForOutput(timeout: .seconds(90)) {
      $0.contains(Self.title + " · line")
    }
    try #require(shown, "the reader's first page, awaited for 90 s: \(reader.stdoutText)")
    try #require(truncate(file.path, 1000) == 0)
    await reader.write(Data("g 90%\nn\nq\n".utf8))
    reader.closeInput()
    let exit = await reader.wait(timeout: .seconds(90))
    await server.stop()

    let errors = String(decoding: reader.stderr, as: UTF8.self).split(separator: "\n")
    #expect(exit.signal == nil, "the reader was killed: \(errors)")
    #expect(exit.code == 65, "\(errors)")
    #expect(
      errors == [
        "error: the file of book 84 was cut short to 1000 of \(book.text.count) bytes while it "
          + "was open; closed it (`read 84` opens it again)"
      ])
  }

  /// A 2 GiB sparse file whose first byte is NUL is refused from its first bytes: the rest is
  /// never read (GNU `time` counts the page faults; reading it through would fault in 2 GiB).
  @Test func aHugeSparseFileIsRefusedWithoutReadingIt() async throws {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: Self.oneLineBook(words: 100).text, on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let first = try await app.run(
      ["read", "84", "--pager", "--server", server.url.absoluteString], input: "q\n")
    try #require(first.status == 0, "\(first)")
    let file = try Self.libraryText(app)
    try Data([0]).write(to: file)
    try #require(truncate(file.path, 2 << 30) == 0)

    let (run, faults) = try await app.runCountingPageFaults(
      ["read", "84", "--pager", "--server", server.url.absoluteString])
    await server.stop()

    #expect(run.status == 65, "\(run)")
    #expect(
      run.errLines.last
        == "error: book 84's file is not text (it has a NUL byte at byte 1); "
        + "open it with another program", "\(run)")
    // 2 GiB is 524,288 pages; even 16 to a fault (fault-around) is 32,768 faults.
    #expect(faults < 20_000, "\(faults) page faults: the file was read through")
  }
}
