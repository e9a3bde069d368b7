import Foundation
import Gutendex
import GutendexEngine
import TestSupport
import Testing

@testable import Catalog
@testable import Terminal

/// The captures in `Screens/`, each what the app prints for a state reached the way a user
/// reaches it (see ``CaptureApp``), through the same drawing path production uses.
@MainActor
enum ProductionCaptures {
  /// One capture: its file name (without `.txt`) and the text.
  typealias Capture = (name: String, text: String)

  static func book(_ id: Int, in fixture: String) throws -> Book {
    try Fixtures.book(id, in: fixture)
  }

  /// The row of book `id` on the recorded page `fixture`.
  static func row(of id: Int, in fixture: String) throws -> Int {
    let ids = try Fixtures.page(fixture).results.map(\.id)
    guard let index = ids.firstIndex(of: id) else {
      throw Fixtures.Failure.noBook(id: id, file: fixture)
    }
    return index + 1
  }

  static func browse() async throws -> String {
    let app = try CaptureApp()
    try await app.favorite([1342, 84, 2554].map { try book($0, in: "e4-2025-page1") })
    return await app.start()
  }

  static func searchResults() async throws -> String {
    let app = try CaptureApp(query: BookQuery(search: "great expectations", languages: ["en"]))
    try await app.favorite([try book(1400, in: "e2-2022-search-great-expectations")])
    return await app.start()
  }

  static func details() async throws -> String {
    let app = try CaptureApp()
    try await app.favorite([try book(2554, in: "e4-2025-page1")])
    _ = await app.start()
    return await app.type("\(try row(of: 2554, in: "e4-2025-page1"))")
  }

  /// A book downloaded twice: the EPUB is there, the text file was deleted by hand.
  static func downloadedDetails() async throws -> String {
    let app = try CaptureApp()
    try await app.attachBookActions()
    let book = try book(2554, in: "e4-2025-page1")
    // A fixed place, so the capture (which shows the paths) is the same on every run.
    let directory = URL(fileURLWithPath: "/tmp/gutenberg-screens/books", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
    let epub = directory.appendingPathComponent("2554-crime-and-punishment.epub")
    try Data("epub".utf8).write(to: epub)
    for (format, path) in [
      ("epub", epub.path),
      ("txt", directory.appendingPathComponent("2554-crime-and-punishment.txt").path),
    ] {
      try await app.service.recordDownload(
        LibraryEntry(
          id: book.id, format: format, title: book.title, path: path, size: 4,
          fetchedAt: SampleScreens.now.addingTimeInterval(-86_400), validator: nil,
          url: "https://www.gutenberg.org/ebooks/2554.\(format)"))
    }
    _ = await app.start()
    return await app.type("\(try row(of: 2554, in: "e4-2025-page1"))")
  }

  static func links() async throws -> String {
    let app = try CaptureApp(query: BookQuery(languages: ["de"]))
    _ = await app.start()
    return await app.type("links \(try row(of: 24746, in: "de__page_1"))")
  }

  /// Seven favourites added over two weeks; one the server no longer has.
  static func withFavorites() async throws -> CaptureApp {
    let app = try CaptureApp()
    let picks: [(Int, String, Double)] = [
      (1400, "e2-2022-search-great-expectations", 13), (9637, "fr__page_9", 8),
      (43669, "en__page_536", 5), (60045, "en__page_87", 3), (24264, "zh__page_1", 2),
      (1982, "ja__page_1", 1), (1342, "e4-2025-page1", 0),
    ]
    for (id, fixture, days) in picks {
      let added = SampleScreens.now.addingTimeInterval(-days * 86_400 - 3_600)
      _ = try app.favorites.add([try book(id, in: fixture)], at: added)
    }
    // A refresh three hours ago found 60045 gone from the server (it is kept, marked).
    try app.favorites.applyRefresh(
      books: [], missingIDs: [60045], at: SampleScreens.now.addingTimeInterval(-3 * 3_600))
    return app
  }

  static func favorites() async throws -> String {
    let app = try await withFavorites()
    _ = await app.start()
    return await app.type("F")
  }

  static func exportConfirmation() async throws -> String {
    let app = try await withFavorites()
    // A fixed place, so the capture (which shows the path) is the same on every run.
    let directory = URL(fileURLWithPath: "/tmp/gutenberg-screens", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    _ = await app.start()
    return await app.type("export \(directory.path)/gutenberg-favourites.json")
  }

  static func help() async throws -> String {
    let app = try CaptureApp(mode: .localOnly)
    _ = await app.start()
    return await app.type("?")
  }

  static func offlineCached() async throws -> String {
    let app = try CaptureApp(query: BookQuery(languages: ["ru"]))
    // Fetched (and cached) five minutes ago; now the server cannot be reached.
    app.clock.set(SampleScreens.now.addingTimeInterval(-300))
    _ = await app.start()
    app.clock.set(SampleScreens.now)
    app.server.fail(with: .unreachable)
    return await app.type("r")
  }

  static func offlineEmbedded() async throws -> String {
    let app = try CaptureApp()
    _ = await app.start()
    _ = await app.type("offline on")
    return await app.type("lang zh")
  }

  static func rateLimited() async throws -> String {
    let app = try CaptureApp()
    _ = await app.start()
    app.server.fail(with: .rateLimited(seconds: 30))
    return await app.type("n")
  }

  static func serverDown() async throws -> String {
    let app = try await withFavorites()
    _ = await app.start()
    _ = await app.type("F")
    app.server.fail(with: .unreachable)
    return await app.type("r")
  }

  static func pageOutOfRange() async throws -> String {
    let app = try CaptureApp(mode: .localOnly)
    _ = await app.start()
    return await app.type("g 99999")
  }

  static func badCommand() async throws -> String {
    let app = try CaptureApp(mode: .localOnly)
    _ = await app.start()
    return await app.type("xyz")
  }

  static func narrow() async throws -> String {
    let books = try RecordedGutendex.dreamBooks()
    let app = try CaptureApp(
      width: 60, query: BookQuery(search: "dream", languages: ["en", "ja", "zh"]))
    try await app.favorite([books[0], try book(1982, in: "ja__page_1")])
    return await app.start()
  }

  /// The first page in a window of 24 rows: the rows that fit under the heading, the keys
  /// under them and the prompt's row below.
  static func browse24Rows() async throws -> String {
    let app = try CaptureApp(height: 24)
    try await app.favorite([1342, 84, 2554].map { try book($0, in: "e4-2025-page1") })
    return await app.start()
  }

  /// The browser in a window of `width`×`height`: the first screen, a book's details (with
  /// its summary, taller than an 80×24 window: its title, a window of its fields and where it
  /// is), Enter on them, then back and Enter (the next rows, from the server's second page,
  /// which the recordings answer from another listing), and `?`.
  static func window(width: Int, height: Int) async throws -> [Capture] {
    let app = try CaptureApp(width: width, height: height)
    try await app.favorite([1342, 84, 2554].map { try book($0, in: "e4-2025-page1") })
    let name = "window-\(width)x\(height)"
    let first = await app.start()
    let details = await app.type("\(try row(of: 2701, in: "e4-2025-page1"))")
    let more = await app.type("")
    _ = await app.type("b")
    _ = await app.type("")
    let next = await app.type("")
    let help = await app.type("?")
    return [
      (name, first), ("\(name)-next", next), ("\(name)-details", details),
      ("\(name)-details-more", more), ("\(name)-help", help),
    ]
  }

  /// The first page in the narrowest window the front fits (40 columns), 24 rows.
  static func browse40Columns() async throws -> String {
    let app = try CaptureApp(width: 40, height: 24)
    try await app.favorite([1342, 84, 2554].map { try book($0, in: "e4-2025-page1") })
    return await app.start()
  }

  /// A search that finds few books, with the embedded catalogue's proposal under the list.
  static func suggestion() async throws -> String {
    let app = try CaptureApp(mode: .localOnly)
    _ = await app.start()
    return await app.type("/ les miserables")
  }

  static func embeddedDetails() async throws -> String {
    let app = try CaptureApp(mode: .localOnly)
    _ = await app.start()
    return await app.type("3")
  }

  /// What `gutenberg list` says on standard error when the server refuses the connection and
  /// the embedded catalogue stands in (the page itself goes to standard output).
  static func fallbackNote() async throws -> String {
    let capture = OneShotOutputTests.Capture()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-capture-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // Nothing listens on port 1 of the loopback interface: a real refused connection.
    let options = AppOptions(
      server: "http://127.0.0.1:1", dataDirectory: directory.path, color: .never,
      environment: [:])
    let app = try await AppContext(options: options, output: capture.output())
    _ = await ListRunner(context: app).run(query: BookQuery(), all: false, format: .automatic)
    return capture.err
  }

  /// The status screen. Its request times and durations are wall-clock figures, so this one
  /// state is written out (in the view model's own type) and drawn by the production mapping.
  static func status() -> String {
    StatusCapture.lines().joined(separator: "\n") + "\n"
  }

  /// `sync` at the prompt, twice: the recorded server's books that the embedded catalogue
  /// lacks or holds differently (its summaries, its newer download counts), then nothing new.
  static func sync() async throws -> String {
    let app = try CaptureApp(syncedCatalogue: true)
    _ = await app.start()
    return await app.type("sync") + app.type("sync")
  }

  /// `sync` then `new` at the prompt, a favourite by the new book's author kept: the line
  /// that says what arrived, then the book with its reason.
  static func new() async throws -> String {
    let app = try CaptureApp(syncedCatalogue: true)
    _ = await app.start()
    // Book 71988 of the snapshot is by the author of the book the sync brings.
    let kept = try #require(try EmbeddedCatalogue.load().bookJSON(id: 71988))
    _ = try app.favorites.add(
      [try Book.decode(from: kept), try book(1400, in: "e2-2022-search-great-expectations")],
      at: SampleScreens.now.addingTimeInterval(-86_400))
    return await app.type("sync") + app.type("new")
  }

  /// The reader's `b NOTE` at 30%, `b` at 75% and then `bookmarks`, on the sample text, through
  /// the app's own reader commands over the capture's store.
  static func bookmarks() async throws -> String {
    let capture = try CaptureApp(width: 80)
    try await capture.attachBookActions()
    guard let app = capture.app else { throw CaptureFailure("no app") }
    let session = ReaderSession(
      pager: try SampleScreens.reader(), id: 84, service: app.service,
      output: capture.screen.output(), input: OneShotOutputTests.Lines([]))
    let before = capture.screen.out.count
    session.pager.go(percent: 30)
    await session.mark(note: "the creature's first night")
    session.pager.go(percent: 75)
    await session.mark(note: "")
    await session.listBookmarks()
    return String(capture.screen.out.dropFirst(before))
  }

  /// `gutenberg notes 84 --markdown` after two highlights made in the reader on the sample
  /// text (a passage between two searches, with a note, and a search's match without one).
  static func notesMarkdown() async throws -> String {
    let capture = try CaptureApp(width: 80)
    try await capture.attachBookActions()
    guard let app = capture.app else { throw CaptureFailure("no app") }
    let session = ReaderSession(
      pager: try SampleScreens.reader(), id: 84, service: app.service,
      output: capture.screen.output(), input: OneShotOutputTests.Lines([]))
    _ = await session.perform(.search("rejoice to hear"))
    _ = await session.perform(
      .highlight(.between("You will", "welfare"), note: "Walton's first letter, > all hope"))
    _ = await session.perform(.search("cold northern breeze"))
    _ = await session.perform(.highlight(.match, note: ""))
    let before = capture.screen.out.count
    _ = await NotesRunner(context: app).run(id: 84, format: .markdown)
    return String(capture.screen.out.dropFirst(before))
  }

  /// The reader in a window of `width`×`height`, where it takes keys without Enter: the first
  /// page, then Space, as the window shows them (its last `height` rows, the `:` prompt last).
  static func readerWindow(width: Int, height: Int) async throws -> String {
    let capture = try CaptureApp(width: width, height: height)
    try await capture.attachBookActions()
    guard let app = capture.app else { throw CaptureFailure("no app") }
    let screen = capture.screen
    let keys = ScriptedKeys(ScriptedKeys.keys(" "), screen: { screen.out })
    let pager = Pager(
      text: BookText(data: try FixtureFiles.data("pg84-sample.txt")),
      title: "Frankenstein; Or, The Modern Prometheus", width: width, height: height - 2)
    let session = ReaderSession(
      pager: pager, id: 84, service: app.service, output: screen.output(),
      input: OneShotOutputTests.Lines([]), keys: keys)
    _ = await session.run()
    let shown = ScriptedKeys.asShown(keys.last.withLock { $0 })
    return shown.split(separator: "\n", omittingEmptySubsequences: false).suffix(height)
      .joined(separator: "\n") + "\n"
  }

  /// The reader on an EPUB (`SampleEpub`: headings, a note reference, an image, verse, a
  /// table) in a window of 80×24, where it takes keys: its first page, as the window shows it.
  static func epubWindow() async throws -> String {
    let capture = try CaptureApp(width: 80, height: 24)
    try await capture.attachBookActions()
    guard let app = capture.app else { throw CaptureFailure("no app") }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("epub-capture-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("book.epub")
    try SampleEpub.write(to: file.path)
    let screen = capture.screen
    let keys = ScriptedKeys([], screen: { screen.out })
    let pager = Pager(
      text: try await EpubConversion(path: file.path).whole(), title: SampleEpub.title,
      width: 80, height: 22)
    let session = ReaderSession(
      pager: pager, id: 84, service: app.service, output: screen.output(),
      input: OneShotOutputTests.Lines([]), keys: keys)
    _ = await session.run()
    let shown = ScriptedKeys.asShown(keys.last.withLock { $0 })
    return shown.split(separator: "\n", omittingEmptySubsequences: false).suffix(24)
      .joined(separator: "\n") + "\n"
  }

  /// `grep petersburgh` at the prompt over a library holding the sample text (at a fixed
  /// path, so the capture is the same on every run): the book, then each match under it with
  /// its chapter, the `read` command that opens the reader there and the line, match marked.
  static func librarySearch() async throws -> String {
    let app = try CaptureApp(width: 80)
    try await app.attachBookActions()
    let directory = URL(fileURLWithPath: "/tmp/gutenberg-screens-grep", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("84-frankenstein.txt")
    let text = try FixtureFiles.data("pg84-sample.txt")
    try text.write(to: file)
    try await app.service.recordDownload(
      LibraryEntry(
        id: 84, format: "txt", title: "Frankenstein; Or, The Modern Prometheus", path: file.path,
        size: Int64(text.count), fetchedAt: SampleScreens.now, validator: nil,
        url: "https://www.gutenberg.org/ebooks/84.txt.utf-8"))
    _ = await app.start()
    return await app.type("grep petersburgh")
  }

  struct CaptureFailure: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// Every capture, in the order of `Screens/README.md`.
  static func all() async throws -> [Capture] {
    [
      ("browse", try await browse()),
      ("search-results", try await searchResults()),
      ("suggestion", try await suggestion()),
      ("details", try await details()),
      ("details-embedded", try await embeddedDetails()),
      ("details-downloaded", try await downloadedDetails()),
      ("links", try await links()),
      ("favorites", try await favorites()),
      ("export-confirmation", try await exportConfirmation()),
      ("help", try await help()),
      ("offline-cached", try await offlineCached()),
      ("offline-embedded", try await offlineEmbedded()),
      ("fallback-rate-limited", try await rateLimited()),
      ("note-fallback", try await fallbackNote()),
      ("status", status()),
      ("sync", try await sync()),
      ("new", try await new()),
      ("error-server-down", try await serverDown()),
      ("error-page-out-of-range", try await pageOutOfRange()),
      ("error-bad-command", try await badCommand()),
      ("narrow", try await narrow()),
      ("browse-24-rows", try await browse24Rows()),
      ("browse-40-columns", try await browse40Columns()),
    ] + (try await window(width: 80, height: 24)) + (try await window(width: 100, height: 40)) + [
      ("progress", render(SampleScreens.progress(), width: 100)),
      ("library", render(SampleScreens.library(), width: 100)),
      ("reader", render(try SampleScreens.reader(), width: 80)),
      ("reader-toc", render(try SampleScreens.readerContents(), width: 80)),
      ("reader-80x24", try await readerWindow(width: 80, height: 24)),
      ("reader-60x20", try await readerWindow(width: 60, height: 20)),
      ("reader-epub", try await epubWindow()),
      ("bookmarks", try await bookmarks()),
      ("notes-markdown", try await notesMarkdown()),
      ("library-search", try await librarySearch()),
      ("progress-status", try await ProgressCaptures.status()),
      ("reader-offer", try await ProgressCaptures.offer()),
    ]
  }

  static func render(_ screen: any LineRendering, width: Int) -> String {
    screen.text(width: width, style: .plain)
  }
}
