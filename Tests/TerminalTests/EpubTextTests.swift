import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Terminal

/// An EPUB made here (a zip written by libarchive, XHTML documents, a package document whose
/// spine is not the zip's order) read into the reader's text: the spine's order, headings in
/// the table of contents, images as their `alt` text, note references as `[n]`, verse and
/// tables kept, page numbers left out, prose reflowed; a truncated or bombed zip refused.
@Suite struct EpubTextTests {
  /// A scratch folder of its own, removed by the caller.
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("epub-text-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func write(to folder: URL) throws -> URL {
    let file = folder.appendingPathComponent("book.epub")
    try SampleEpub.write(to: file.path)
    return file
  }

  /// The lines of the book's body, as the reader's text has them.
  static func bodyLines(_ text: BookText) -> [String] {
    text.body.map { text.bytes.string(text.lineRange($0)) }
  }

  @Test func anEpubReadsInSpineOrderWithItsTableOfContents() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = try await EpubConversion(path: try Self.write(to: folder).path).whole()
    #expect(!text.isPartial)
    #expect(text.notText == nil)
    let lines = Self.bodyLines(text)
    // The PG header and licence are folded as in a plain text.
    #expect(text.foldedHeaderLines > 0)
    #expect(text.foldedFooterLines > 0)
    #expect(!lines.contains { $0.contains("START OF THE PROJECT") || $0.contains("licence") })
    let order = ["CHAPTER I.", "It was the first", "CHAPTER II.", "The second", "CHAPTER III."]
    let found = order.map { word in lines.firstIndex { $0.hasPrefix(word) } }
    #expect(found.allSatisfy { $0 != nil }, "\(lines)")
    #expect(found.compactMap { $0 } == found.compactMap { $0 }.sorted(), "spine order: \(lines)")
    // A paragraph is one line at the margin, its spaces collapsed, its note reference `[1]`,
    // the page number gone; the image is its alt text.
    #expect(
      lines.contains(
        "It was the first morning of the voyage, and the sea lay flat and grey under a sky that "
          + "promised\u{A0}nothing; Walton wrote by the lamp until late[1] and slept badly. The ship "
          + "was quiet."), "\(lines)")
    #expect(lines.contains("[Illustration: The ship in the ice]"))
    #expect(lines.contains("[1] A note at the foot of the page."))
    // Verse set in, its lines together, a blank line between stanzas; the table's columns.
    let verse = try #require(lines.firstIndex(of: "  The ice was here, the ice was there,"))
    #expect(
      Array(lines[verse...(verse + 3)]) == [
        "  The ice was here, the ice was there,", "    The ice was all around:", "",
        "  It cracked and growled,",
      ])
    let table = try #require(lines.firstIndex { $0.hasPrefix("  Name") })
    #expect(
      Array(lines[table...(table + 2)]) == [
        "  Name                Age", "  Victor              21", "  Elizabeth Lavenza   19",
      ])
    // Headings h1–h3 are the table of contents, in order, where their lines start.
    let contents = TableOfContents(text, in: text.bodyBytes)
    #expect(
      contents.entries.map(\.title) == [
        "CHAPTER I. The Beginning", "CHAPTER II.", "A Table", "CHAPTER III.",
      ])
    for entry in contents.entries {
      let line = text.bytes.string(entry.offset..<text.lineEnd(from: entry.offset))
      #expect(entry.title.hasPrefix(line), "\(entry) starts its line '\(line)'")
    }
  }

  @Test func theTextIsTheSameEveryTimeAndItsStartIsTheWholeTextsStart() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try Self.write(to: folder)
    let one = try await EpubConversion(path: file.path).whole()
    let two = try await EpubConversion(path: file.path).whole()
    #expect(one.bytes.string(one.allBytes) == two.bytes.string(two.allBytes))
    let start = try await EpubConversion(path: file.path).text(covering: 10)
    let prefix = start.bytes.string(start.allBytes)
    #expect(one.bytes.string(one.allBytes).hasPrefix(prefix))
    #expect(!prefix.isEmpty)
  }

  /// The text is written in the spine's order as documents come, whatever the zip's order:
  /// each document's own text one after another, blank lines between them, one listed twice
  /// there twice, an empty one left out, the headings where their lines are; and the start
  /// shown first is those same bytes.
  @Test func theDocumentsAreWrittenInSpineOrderWhateverTheZipsOrder() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = ["c", "a", "empty", "b"].map { name in
      EpubWriter.File(
        path: "\(name).xhtml",
        text: EpubWriter.xhtml(
          title: name,
          body: name == "empty"
            ? ""
            : "<h2>Part \(name.uppercased())</h2>\n"
              + String(
                repeating: "<p>The words of part \(name), one after another.</p>\n", count: 50)))
    }
    // Each document's text alone: an EPUB of it and nothing else.
    var alone: [String: String] = [:]
    for file in files {
      let url = folder.appendingPathComponent("\(file.path).epub")
      try EpubWriter.write(to: url.path, title: "One", documents: [file], spine: [file.path])
      let text = try await EpubConversion(path: url.path).whole()
      alone[file.path] = text.bytes.string(text.allBytes)
    }
    #expect(alone["empty.xhtml"] == "")
    let book = folder.appendingPathComponent("book.epub")
    let spine = ["a.xhtml", "b.xhtml", "empty.xhtml", "a.xhtml", "c.xhtml"]
    try EpubWriter.write(to: book.path, title: "Parts", documents: files, spine: spine)
    let conversion = EpubConversion(path: book.path)
    let start = try await conversion.text(covering: 10)
    let whole = try await conversion.whole()
    let expected = ["a", "b", "a", "c"].compactMap { alone["\($0).xhtml"] }
      .joined(separator: "\n\n")
    #expect(whole.bytes.string(whole.allBytes) == expected)
    #expect(expected.hasPrefix(start.bytes.string(start.allBytes)))
    let outline = try #require(whole.outline)
    #expect(outline.map(\.title) == ["Part A", "Part B", "Part A", "Part C"])
    for entry in outline {
      #expect(whole.bytes.string(entry.offset..<whole.lineEnd(from: entry.offset)) == entry.title)
    }
  }

  @Test func proseIsWrappedToTheWindowAndVerseKept() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = try await EpubConversion(path: try Self.write(to: folder).path).whole()
    for width in [40, 72] {
      var pager = Pager(text: text, title: "Test Book", width: width, height: 30)
      var rows: [String] = []
      repeat { rows += pager.page().rows.map(\.text) } while pager.nextPage()
      #expect(rows.allSatisfy { DisplayWidth.cells($0) <= width }, "\(rows)")
      #expect(rows.contains("    The ice was all around:"), "\(rows)")
      let words = rows.joined(separator: " ").split(separator: " ")
      #expect(words.contains("voyage,"))
      #expect(rows.first { $0.hasPrefix("It was the first") }.map { $0.count > width - 12 } == true)
    }
  }

  @Test func aTruncatedEpubIsRefusedInOneLine() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try Self.write(to: folder)
    let bytes = try Data(contentsOf: file)
    try bytes.prefix(bytes.count / 2).write(to: file)
    let failure = await #expect(throws: EpubError.self) {
      try await EpubConversion(path: file.path).whole()
    }
    #expect(failure?.description.hasPrefix("it is not a whole zip archive") == true, "\(failure!)")
    #expect(failure?.status == .dataError)
    #expect(failure?.description.contains("\n") == false)
  }

  @Test func anEntryThatExpandsPastTheLimitIsRefusedUnread() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("bomb.epub")
    // 40 MiB of one letter, a few kilobytes deflated.
    let huge = EpubWriter.File(
      path: "a.xhtml",
      text: "<html><body><p>" + String(repeating: "a", count: 40 << 20) + "</p></body></html>")
    try EpubWriter.write(to: file.path, title: "Bomb", documents: [huge], spine: ["a.xhtml"])
    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
    #expect((size ?? .max) < 1 << 20)
    let failure = await #expect(throws: EpubError.self) {
      try await EpubConversion(path: file.path).whole()
    }
    #expect(failure == .tooLarge("OEBPS/a.xhtml", limit: EpubArchive.entryLimit))
    #expect(failure?.description.contains("expands past 32 MiB") == true)
  }

  @Test func aZipThatIsNoEpubSaysWhatIsMissing() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("plain.zip")
    try EpubWriter.writeZip([EpubWriter.File(path: "readme.txt", text: "hello")], to: file.path)
    let failure = await #expect(throws: EpubError.self) {
      try await EpubConversion(path: file.path).whole()
    }
    #expect(failure == .notEpub("no META-INF/container.xml"))
  }

  @Test func hrefsAreResolvedAgainstThePackagesFolder() {
    #expect(EpubPackage.resolve("text/ch%201.xhtml#top", in: "OEBPS") == "OEBPS/text/ch 1.xhtml")
    #expect(EpubPackage.resolve("../Text/a.xhtml", in: "OEBPS/content") == "OEBPS/Text/a.xhtml")
    #expect(EpubPackage.resolve("a.xhtml", in: "") == "a.xhtml")
  }
}

/// The reader on the start of an EPUB (what its first page waits for), the rest handed over at
/// the first key: the first page has no line count nor percentage, the next key goes on in the
/// whole text from the same place; a rest that cannot be read ends the reader in one line.
@MainActor
@Suite(.serialized)
struct EpubReaderSessionTests {
  /// The whole text, handed over when asked (or a failure).
  struct Rest: RestOfText {
    let text: Result<BookText, EpubError>
    func whole() async throws(EpubError) -> BookText { try text.get() }
  }

  /// The sample EPUB's text, and a text of its first `bytes` bytes as the conversion makes it.
  static func texts(prefix bytes: Int) async throws -> (whole: BookText, start: BookText) {
    let folder = try EpubTextTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try await EpubConversion(path: try EpubTextTests.write(to: folder).path).whole()
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes)
    _ = buffer.initialize(from: whole.bytes.buffer(0..<bytes))
    let outline = (whole.outline ?? []).filter { $0.offset < bytes }
    return (whole, BookText(epubText: buffer, outline: outline, isPartial: true))
  }

  func read(_ keys: String, rest: Result<BookText, EpubError>? = nil) async throws -> (
    ReaderSession, String, Terminal.ExitStatus
  ) {
    let (whole, start) = try await Self.texts(prefix: 400)
    let capture = try CaptureApp(width: 60, height: 20)
    // Both streams, in order, as a terminal shows them.
    let shown = Mutex("")
    let output = TerminalOutput(
      isTerminal: true, errorIsTerminal: true, style: .plain, windowSize: { (60, 20) },
      writeOut: { text in shown.withLock { $0 += text } },
      writeErr: { text in shown.withLock { $0 += text } })
    let scripted = ScriptedKeys(ScriptedKeys.keys(keys), screen: { shown.withLock { $0 } })
    let session = ReaderSession(
      pager: Pager(text: start, title: "Test Book", width: 60, height: 18), id: 84,
      service: capture.service, output: output, input: OneShotOutputTests.Lines([]),
      keys: scripted)
    session.rest = Rest(text: rest ?? .success(whole))
    let status = await session.run()
    return (session, shown.withLock { $0 }, status)
  }

  @Test func theFirstPageComesFromTheStartAndTheNextKeyGoesOnInTheWhole() async throws {
    let (session, shown, status) = try await read("G")
    #expect(status == .ok)
    let statuses = shown.split(separator: "\n").filter { $0.contains("Test Book · line") }
    #expect(statuses.first?.hasSuffix("Test Book · line 1") == true, "\(statuses)")
    #expect(statuses.last?.hasSuffix("100%") == true, "\(statuses)")
    #expect(!session.pager.text.isPartial)
    #expect(session.pager.chapterStarts.count == 4)
    #expect(shown.contains("The third chapter's words"))
  }

  @Test func aRestThatCannotBeReadEndsTheReaderInOneLine() async throws {
    let (_, shown, status) = try await read("G", rest: .failure(.damaged("ZIP bad CRC")))
    #expect(status == .dataError)
    #expect(
      shown.contains("error: cannot read the rest of book 84's EPUB: it is damaged (ZIP bad CRC)"))
    #expect(!shown.contains("The third chapter's words"))
  }
}
