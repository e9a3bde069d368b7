import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// `library search` with the real binary over texts downloaded from a loopback server: a word
/// deep inside a long line, found and opened by the `read` command printed with it; cased and
/// accented variants, in UTF-8 and in Latin-1; a file that is not text, skipped with a note.
@Suite(.serialized, .ownThread)
struct LibrarySearchTests {
  /// The word hidden deep inside the long line (and once more in the licence, where it must not
  /// be found).
  static let word = "Zéphyrine"

  /// A PG-style UTF-8 text: a CONTENTS table, Chapter 1 with `café` written with a combining
  /// accent, and Chapter 2, a paragraph of more than 3,000 characters on one line with
  /// ``word`` about 2,600 characters in. Returns the bytes and the word's offset in them.
  static func book() -> (text: Data, offset: Int, cafe: Int) {
    let words = (1...500).map { "word\($0)" }
    let line =
      words.prefix(330).joined(separator: " ") + " " + word + " "
      + words.dropFirst(330).joined(separator: " ")
    let head =
      "The Project Gutenberg eBook of Test\r\n\r\n"
      + "*** START OF THE PROJECT GUTENBERG EBOOK TEST ***\r\n\r\nCONTENTS\r\n\r\n"
      + " Chapter 1\r\n Chapter 2\r\n\r\n\r\nChapter 1\r\n\r\nA short line: "
    let cafe = head.utf8.count
    let middle = "cafe\u{301} au lait.\r\n\r\nChapter 2\r\n\r\n"
    let text =
      head + middle + line + "\r\n\r\nThe end.\r\n\r\n"
      + "*** END OF THE PROJECT GUTENBERG EBOOK TEST ***\r\n\r\nLicence: \(word).\r\n"
    let before = head + middle + words.prefix(330).joined(separator: " ") + " "
    #expect(line.count > 3_000)
    return (Data(text.utf8), before.utf8.count, cafe)
  }

  /// A Latin-1 (Windows-1252) text with an accented upper-case word.
  static let latin1 = Data(
    [UInt8]("*** START OF THE PROJECT GUTENBERG EBOOK L ***\n\nUn ".utf8) + [0xC9, 0x54, 0xC9]
      + [UInt8](" long, une cr".utf8) + [0xE8]
      + [UInt8]("me.\n\n*** END OF THE PROJECT GUTENBERG EBOOK L ***\n".utf8))

  /// An app whose library holds book 84 (``book()``) and book 1342 (``latin1``), downloaded
  /// by `read` from a loopback server; the server is stopped.
  static func library() async throws -> Gutenberg {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: book().text, on: server.server)
    try BookFiles.serveText(id: 1342, text: latin1, on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    for id in [84, 1342] {
      let run = try await app.run(["read", String(id), "--server", server.url.absoluteString])
      try #require(run.status == 0, "\(run)")
    }
    await server.stop()
    return app
  }

  /// The tab-separated fields of each line printed.
  static func rows(_ run: Gutenberg.Run) -> [[String]] {
    run.outLines.map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
  }

  @Test func aWordDeepInALongLineIsFoundAndItsReadHintOpensTheReaderOnIt() async throws {
    let book = Self.book()
    let app = try await Self.library()
    defer { app.cleanUp() }
    // Where the book starts, the word is not on screen: only `--at` can bring it there.
    var plain = app
    plain.extraEnvironment["LINES"] = "24"
    let start = try await plain.run(["read", "84", "--pager"], input: "q\n")
    try #require(start.status == 0, "\(start)")
    #expect(!start.out.contains(Self.word), "\(start)")

    let window = try await TerminalWindow(
      app, ["library", "search", "ZEPHYRINE"], columns: 80, rows: 24)
    defer { window.closeNow() }
    #expect(try await window.waitForExit(timeout: .seconds(90)), "library search never ended")
    let screen = try await window.screen()
    await window.close()
    #expect(screen.contains("[exited 0]"), "\(screen)")
    let marked = screen.filter { $0.contains("»") }
    #expect(marked.count == 1, "one match: the licence's is not searched: \(screen)")
    let line = try #require(marked.first)
    #expect(line.contains("»\(Self.word)«"), "\(screen)")
    #expect(line.hasPrefix("    …") && line.hasSuffix("…"), "cut around the match: \(screen)")
    #expect(line.count <= 80, "\(screen)")
    let hint = try #require(screen.first { $0.contains("gutenberg read 84 --at ") }, "\(screen)")
    #expect(hint.hasPrefix("  Chapter 2 · "), "\(screen)")
    #expect(screen.contains { $0.hasPrefix("84  ") }, "the book's line: \(screen)")
    let command = try #require(hint.firstRange(of: "gutenberg read")).lowerBound
    let words = hint[command...].split(separator: " ").map(String.init)
    #expect(words.last == String(book.offset), "the word's byte offset: \(screen)")

    // The hint as printed, in a terminal: the reader's first page holds the word.
    let reader = try await TerminalWindow(app, Array(words.dropFirst()), columns: 80, rows: 24)
    defer { reader.closeNow() }
    let page = try await reader.waitForScreen(timeout: .seconds(90)) { rows in
      rows.last { !$0.isEmpty } == ":"
    }
    #expect(page.held, "the reader's prompt, awaited for 90 s: \(page.screen)")
    #expect(page.screen.contains(Self.word), "\(page.screen)")
    try await reader.type("q")
    try await reader.press("Enter")
    #expect(try await reader.waitForExit(timeout: .seconds(90)), "the reader never quit")
    await reader.close()
  }

  @Test func casedAndAccentedVariantsMatchInUTF8AndLatin1() async throws {
    let book = Self.book()
    let app = try await Self.library()
    defer { app.cleanUp() }

    // `café` is written `cafe` + U+0301 in the book: `CAFÉ` (precomposed) finds it.
    let cafe = try await app.run(["library", "search", "CAFÉ"])
    #expect(cafe.status == 0, "\(cafe)")
    #expect(
      Self.rows(cafe).map { [$0[0], $0[2], $0[3], $0[5]] } == [
        ["84", "Chapter 1", String(book.cafe), "gutenberg read 84 --at \(book.cafe)"]
      ], "\(cafe)")
    #expect(Self.rows(cafe).first?[4] == "A short line: cafe\u{301} au lait.", "\(cafe)")

    // The Latin-1 text: `ete` finds `ÉTÉ`, `CREME` finds `crème`, decoded as the reader does.
    let ete = try await app.run(["library", "search", "ete", "--json"])
    #expect(ete.status == 0, "\(ete)")
    let objects = try #require(
      try JSONSerialization.jsonObject(with: ete.stdout) as? [[String: Any]], "\(ete)")
    #expect(objects.count == 1, "\(ete)")
    #expect(objects.first?["id"] as? Int == 1342, "\(ete)")
    #expect(objects.first?["match"] as? String == "ÉTÉ", "\(ete)")
    #expect(objects.first?["offset"] as? Int == 51, "\(ete)")
    let creme = try await app.run(["library", "search", "CREME"])
    #expect(Self.rows(creme).map { $0[4] } == ["Un ÉTÉ long, une crème."], "\(creme)")

    // Spaces between words are any spaces; the words must follow each other.
    let phrase = try await app.run(["library", "search", "word330", "  zéphyrine"])
    #expect(phrase.status == 0, "\(phrase)")
    #expect(Self.rows(phrase).map { $0[3] } == [String(book.offset - 8)], "\(phrase)")
  }

  @Test func aFileThatIsNotTextIsSkippedWithANoteAndTheRestSearched() async throws {
    let app = try await Self.library()
    defer { app.cleanUp() }
    let books = app.dataDirectory.appendingPathComponent("books")
    let names = try FileManager.default.contentsOfDirectory(atPath: books.path)
    let name = try #require(names.first { $0.hasPrefix("1342") }, "\(names)")
    var bytes = Data("GIF89a".utf8)
    bytes.append(contentsOf: [0, 1, 2] + (0..<2_000).map { UInt8($0 % 256) })
    try bytes.write(to: books.appendingPathComponent(name))

    let run = try await app.run(["library", "search", "zephyrine"])
    #expect(run.status == 0, "\(run)")
    #expect(Self.rows(run).map(\.first) == ["84"], "\(run)")
    #expect(
      run.errLines == [
        "note: skipped book 1342: its file is not text (it has a NUL byte at byte 7)"
      ],
      "\(run)")

    let none = try await app.run(["library", "search", "nowhere to be found"])
    #expect(none.status == 1, "as grep: \(none)")
    #expect(none.out.isEmpty, "\(none)")
    #expect(none.errLines.last == "no match for \"nowhere to be found\" in 2 texts", "\(none)")

    for words in [[], ["  "]] {
      let empty = try await app.run(["library", "search"] + words)
      #expect(empty.status == 64, "\(empty)")
      #expect(empty.errLines == ["error: give words to search for (see --help)"], "\(empty)")
    }
  }

  @Test func grepInTheBrowserPrintsTheMatchesUnderTheirBook() async throws {
    let book = Self.book()
    let app = try await Self.library()
    defer { app.cleanUp() }
    let run = try await app.run(
      ["--source", "embedded"], input: "grep Zephyrine\ngrep\ngrep nowhere at all\nq\n")
    #expect(run.status == 0, "\(run)")
    let lines = run.outLines
    let hint = try #require(
      lines.firstIndex { $0 == "  Chapter 2 · gutenberg read 84 --at \(book.offset)" }, "\(run)")
    #expect(lines[hint - 1].hasPrefix("84  "), "the book's line above: \(run)")
    #expect(lines[hint + 1].contains("»\(Self.word)«"), "\(run)")
    #expect(
      run.out.contains("error: usage: grep WORDS (find words in the library's texts)")
        || run.err.contains("error: usage: grep WORDS (find words in the library's texts)"),
      "\(run)")
    #expect(run.errLines.contains("no match for \"nowhere at all\" in 2 texts"), "\(run)")
  }

  /// Issue 36: a text's body and chapters are worked out when it is downloaded and kept with
  /// the library, so a search reads no table of contents: changed in the store behind the
  /// program's back, the search shows the change. Kept contents of another size of file are
  /// not used, and without any the search works them out itself and prints the same.
  @Test func aTextsChaptersAreKeptWithTheLibraryAndUsedByTheSearch() async throws {
    let book = Self.book()
    let app = try await Self.library()
    defer { app.cleanUp() }
    let store = app.dataDirectory.appendingPathComponent("favorites.sqlite").path
    let kept = try StoreRows.fetch(
      store, "SELECT id, format, size, body_start FROM download_contents ORDER BY id")
    #expect(kept.map { $0["id"] ?? nil } == ["84", "1342"], "\(kept)")
    let files = try StoreRows.fetch(store, "SELECT id, size FROM download ORDER BY id")
    #expect(kept.map { $0["size"] ?? nil } == files.map { $0["size"] ?? nil }, "\(kept) \(files)")
    #expect(kept.first?["body_start"] != "0", "the PG header is outside the body: \(kept)")

    let search = ["library", "search", "zephyrine"]
    let first = try await app.run(search)
    #expect(first.status == 0, "\(first)")
    #expect(Self.rows(first).map { $0[2] } == ["Chapter 2"], "\(first)")
    #expect(Self.rows(first).map { $0[3] } == [String(book.offset)], "\(first)")

    // One chapter, "Kept", from the start: what the search shows is what the library keeps.
    let title = Array("Kept".utf8).map { String(format: "%02x", $0) }.joined()
    try StoreRows.execute(
      store,
      "UPDATE download_contents SET chapters = X'000000000000000004000000\(title)' WHERE id = 84")
    let changed = try await app.run(search)
    #expect(Self.rows(changed).map { $0[2] } == ["Kept"], "\(changed)")

    // Kept for a file of another size: not this file's, so worked out again.
    try StoreRows.execute(store, "UPDATE download_contents SET size = size + 1 WHERE id = 84")
    let stale = try await app.run(search)
    #expect(stale.out == first.out, "\(stale)")

    try StoreRows.execute(store, "DELETE FROM download_contents")
    let none = try await app.run(search)
    #expect(none.out == first.out, "\(none)")
    #expect(none.status == 0, "\(none)")
  }
}
