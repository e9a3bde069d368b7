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

  @Test func aFileThatIsNotTextIsRefusedInOneLine() async throws {
    let server = try await TestServer.start()
    var bytes = Data("GIF89a".utf8)
    bytes.append(contentsOf: [0, 1, 2, 0xFF, 0xFE] + (0..<2_000).map { UInt8($0 % 256) })
    try BookFiles.serveText(id: 84, text: bytes, on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
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
}
