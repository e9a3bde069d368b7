import Foundation
import GutendexEngine
import TestTraits
import Testing

@testable import TestSupport

/// Issue 35's probes of the files the program opens by path (classes 4 and 5): a FIFO where
/// a file is expected (the history, `GUTENBERG_INDEX`, the catalogue's state, an import
/// document, a downloaded book) never blocks it, and a symbolic link at the history is never
/// written through. Each ends by itself, within seconds of counted time, with one line.
@Suite(.serialized, .ownThread)
struct HostileFileTests {
  /// A FIFO at `url` (nothing ever writes to it: opening it to read would block for ever).
  static func fifo(at url: URL) throws {
    try? FileManager.default.removeItem(at: url)
    try #require(mkfifo(url.path, 0o600) == 0, "mkfifo \(url.path): \(errno)")
  }

  /// A run of `arguments` that must end by itself, promptly (time starved of CPU not counted).
  static func prompt(_ app: Gutenberg, _ arguments: [String]) async throws -> Gutenberg.Run {
    let (run, took) = try await StarvedDeadline.counted { try await app.run(arguments) }
    #expect(run.endedByItself, "\(arguments): \(run)")
    #expect(took < .seconds(20), "\(arguments) took \(took)")
    return run
  }

  @Test func aFIFOAtTheIndexOrTheCatalogueStateNeverBlocks() async throws {
    try await Holdings.with { holdings in
      var app = holdings.app
      let index = app.root.appendingPathComponent("index.fifo")
      try Self.fifo(at: index)
      app.extraEnvironment["GUTENBERG_INDEX"] = index.path
      // Refused by the configuration, never opened (an index swapped for a FIFO after that
      // check is refused by the non-blocking open: IndexOpeningTests).
      let list = try await Self.prompt(app, ["list", "--source", "local"])
      #expect(list.status == 64 && list.errLines.count == 1, "\(list)")
      #expect(list.err.contains("GUTENBERG_INDEX: '\(index.path)' is not"), "\(list)")

      // The catalogue's state: the embedded catalogue answers, with one note.
      let catalogue = holdings.app.dataDirectory.appendingPathComponent("catalogue")
      try FileManager.default.createDirectory(at: catalogue, withIntermediateDirectories: true)
      let state = catalogue.appendingPathComponent("state.json")
      try Self.fifo(at: state)
      let local = try await Self.prompt(holdings.app, ["list", "--source", "local"])
      #expect(local.status == 0 && local.errLines.count == 1, "\(local)")
      #expect(local.err.contains("is a FIFO, not a regular file"), "\(local)")
      try FileManager.default.removeItem(at: state)
      try await holdings.expectIntact("a FIFO at the index and the state")
    }
  }

  @Test func aFIFOGivenToImportOrAtABooksFileNeverBlocks() async throws {
    try await Holdings.with { holdings in
      let app = holdings.app
      let document = app.root.appendingPathComponent("import.fifo")
      try Self.fifo(at: document)
      let imported = try await Self.prompt(app, ["favorites", "import", document.path])
      #expect(imported.status == 1 && imported.errLines.count == 1, "\(imported)")
      #expect(imported.err.contains("is a FIFO, not a regular file"), "\(imported)")

      // The downloaded book's file swapped for a FIFO: read and library search refuse it.
      let names = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      let book = app.dataDirectory.appendingPathComponent(
        try #require(names.first { $0.hasPrefix("84-") }))
      let kept = try Data(contentsOf: book)
      try Self.fifo(at: book)
      let read = try await Self.prompt(app, ["read", "84"])
      #expect(read.status != 0 && read.errLines.count == 1, "\(read)")
      let search = try await Self.prompt(app, ["library", "search", "monster"])
      #expect(search.status == 1, "\(search)")
      #expect(search.err.contains("not a regular file"), "\(search)")
      try FileManager.default.removeItem(at: book)
      try kept.write(to: book)
      try await holdings.expectIntact("a FIFO to import and at a book")
    }
  }

  /// The browser on a terminal with `history` a FIFO (it hung), then a symbolic link to a
  /// file outside the data directory (it was overwritten and made 0600): one note each, the
  /// prompt works, and the link and its target are as they were.
  @Test func aFIFOOrALinkAtTheHistoryIsNeitherReadNorWritten() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let history = app.dataDirectory.appendingPathComponent("history")
    let outside = app.root.appendingPathComponent("outside.txt")
    try Data("someone else's file\n".utf8).write(to: outside)
    try #require(chmod(outside.path, 0o644) == 0)

    for kind in ["FIFO", "link"] {
      if kind == "FIFO" {
        try Self.fifo(at: history)
      } else {
        try? FileManager.default.removeItem(at: history)
        try FileManager.default.createSymbolicLink(at: history, withDestinationURL: outside)
      }
      // Rows enough for the note above the first page.
      let window = try await TerminalWindow(app, ["--source", "local"], columns: 100, rows: 60)
      defer { window.closeNow() }
      let started = try await window.waitForScreen { $0.contains { $0.contains("page 1 of") } }
      #expect(started.held, "\(kind): the browser did not start:\n\(started.screen)")
      #expect(started.screen.contains("the line history is not kept"), "\(started.screen)")
      try await window.type("/ dickens")
      try await window.press("Enter")
      let searched = try await window.waitForScreen {
        $0.contains { $0.hasPrefix("search \"dickens\"") }
      }
      #expect(searched.held, "\(kind): \(searched.screen)")
      try await window.type("q")
      try await window.press("Enter")
      #expect(try await window.waitForExit(), "\(kind): q did not end the browser")
      await window.close()
    }
    #expect(try String(contentsOf: outside, encoding: .utf8) == "someone else's file\n")
    var info = stat()
    #expect(stat(outside.path, &info) == 0 && info.st_mode & 0o777 == 0o644)
    #expect(
      (try? FileManager.default.destinationOfSymbolicLink(atPath: history.path)) == outside.path)
  }
}
