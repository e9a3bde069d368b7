import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// The reader in a real terminal (tmux) takes keys as more and less do, without Enter: Space
/// and `b` turn pages, `j` a row, `g`/`G` the ends, `m` marks with a note and `'` goes back to
/// it; `q` quits at once. With `TERM=dumb` it reads lines as before. Ctrl-Z and `fg` leave it
/// taking single keys.
@Suite(.serialized, .ownThread)
struct ReaderKeysBinaryTests {
  /// The numbers of the `wordN` on screen (the page's rows, not its status or prompt).
  static func numbers(_ screen: [String]) -> [Int] {
    screen.filter { !$0.contains(" · line ") }.flatMap { row in
      row.split(separator: " ").compactMap { token in
        token.hasPrefix("word") ? Int(token.dropFirst(4)) : nil
      }
    }
  }

  static func lastRow(_ screen: [String]) -> String {
    screen.last { !$0.isEmpty } ?? ""
  }

  /// A window on the reader of a book of 3,000 numbered words in one paragraph.
  static func reader(_ app: Gutenberg, server: TestServer, term: String = "xterm-256color")
    async throws -> TerminalWindow
  {
    try BookFiles.serveText(
      id: 84, text: ReaderBinaryTests.oneLineBook(words: 3_000).text, on: server.server)
    return try await TerminalWindow(
      app, ["read", "84", "--server", server.url.absoluteString], columns: 80, rows: 24,
      term: term)
  }

  @Test func singleKeysTurnPagesWithoutEnter() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let window = try await Self.reader(app, server: server)
    defer { window.closeNow() }
    let first = try await window.waitForScreen {
      Self.lastRow($0) == ":" && Self.numbers($0).count > 100
    }
    try #require(first.held, "the reader did not start:\n\(first.screen)")
    let page1 = Self.numbers(try await window.screen())

    try await window.type(" ")
    let next = try await window.waitForScreen { screen in
      Self.lastRow(screen) == ":" && Self.numbers(screen).first == (page1.last ?? 0) + 1
    }
    #expect(next.held, "Space did not show the next page:\n\(next.screen)")
    let page2 = Self.numbers(try await window.screen())

    try await window.type("j")
    let row = try await window.waitForScreen { screen in
      let shown = Self.numbers(screen)
      return Self.lastRow(screen) == ":" && (shown.first ?? 0) > page2[0]
        && (shown.first ?? 0) < (page2.last ?? 0) && (shown.last ?? 0) > (page2.last ?? 0)
    }
    #expect(row.held, "j did not move one row:\n\(row.screen)")

    try await window.type("b")
    let back = try await window.waitForScreen { screen in
      Self.lastRow(screen) == ":" && Self.numbers(screen).first.map { $0 < page2[0] } == true
    }
    #expect(back.held, "b did not go back a screen:\n\(back.screen)")

    try await window.type("G")
    let end = try await window.waitForScreen { $0.contains { $0.hasSuffix("· 100%") } }
    #expect(end.held, "G did not show the last page:\n\(end.screen)")
    #expect(end.screen.contains("The end."))
    try await window.type("g")
    let start = try await window.waitForScreen { screen in
      screen.contains { $0.hasSuffix("· 0%") } && screen.contains("Chapter 1")
    }
    #expect(start.held, "g did not show the first page:\n\(start.screen)")

    try await window.type("q")
    #expect(try await window.waitForExit(), "q did not quit without Enter")
    await window.close()
    await server.stop()
  }

  @Test func mAndANoteThenQuoteReturnsToTheMark() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let window = try await Self.reader(app, server: server)
    defer { window.closeNow() }
    _ = try await window.waitForScreen { Self.lastRow($0) == ":" && Self.numbers($0).count > 100 }
    try await window.type(" ")
    _ = try await window.waitForScreen { Self.numbers($0).first.map { $0 > 100 } == true }
    try await window.type(" ")
    let third = try await window.waitForScreen { Self.numbers($0).first.map { $0 > 250 } == true }
    try #require(third.held, "\(third.screen)")
    let marked = try #require(Self.numbers(try await window.screen()).first)

    try await window.type("m")
    let asked = try await window.waitForScreen { $0.contains { $0.hasPrefix("note (Enter") } }
    #expect(asked.held, "m did not ask for a note:\n\(asked.screen)")
    try await window.type("the storm begins")
    try await window.press("Enter")
    let saved = try await window.waitForScreen { $0.contains { $0.hasPrefix("bookmarked b1 ") } }
    #expect(saved.held, "\(saved.screen)")

    try await window.type("g")
    _ = try await window.waitForScreen { $0.contains("Chapter 1") && Self.lastRow($0) == ":" }
    try await window.type("'")
    let which = try await window.waitForScreen { $0.contains { $0.hasPrefix("go to mark (b1") } }
    #expect(which.held, "' did not ask which mark:\n\(which.screen)")
    try await window.press("Enter")
    let returned = try await window.waitForScreen { screen in
      Self.lastRow(screen) == ":" && Self.numbers(screen).first == marked
    }
    #expect(returned.held, "' did not return to the mark at word\(marked):\n\(returned.screen)")
    try await window.type("q")
    #expect(try await window.waitForExit())
    await window.close()

    let listed = try await app.run(["bookmarks", "84"])
    #expect(listed.out.contains("the storm begins"), "\(listed)")
    #expect(listed.out.contains("word\(marked) "), "\(listed)")
    await server.stop()
  }

  /// `TERM=dumb`: the line commands, each ended by Enter, as piped.
  @Test func aDumbTerminalReadsLinesAsBefore() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let window = try await Self.reader(app, server: server, term: "dumb")
    defer { window.closeNow() }
    let first = try await window.waitForScreen {
      Self.lastRow($0) == ":" && Self.numbers($0).count > 100
    }
    try #require(first.held, "\(first.screen)")
    let page1 = Self.numbers(try await window.screen())
    try await window.type("n")
    try await window.press("Enter")
    let next = try await window.waitForScreen { screen in
      Self.numbers(screen).first == (page1.last ?? 0) + 1
    }
    #expect(next.held, "n and Enter did not turn the page:\n\(next.screen)")
    try await window.type("q")
    try await window.press("Enter")
    #expect(try await window.waitForExit())
    await window.close()
    await server.stop()
  }

  /// Ended by SIGTERM while it waits for a key (no canonical input, no echo), the reader gives
  /// the terminal its own mode back first, as less does, then ends by the signal.
  @Test func sigtermWhileAKeyIsAwaitedGivesTheTerminalItsModeBack() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    try BookFiles.serveText(
      id: 84, text: ReaderBinaryTests.oneLineBook(words: 3_000).text, on: server.server)
    let window = try await TerminalWindow(
      app, ["read", "84", "--server", server.url.absoluteString], columns: 80, rows: 24)
    defer { window.closeNow() }
    let first = try await window.waitForScreen {
      Self.lastRow($0) == ":" && Self.numbers($0).count > 100
    }
    try #require(first.held, "the reader did not start:\n\(first.screen)")
    #expect(try await window.signalProgram(SIGTERM) == 1)
    let exited = try await window.waitForScreen { $0.contains { $0.hasPrefix("[tty ") } }
    #expect(exited.held, "\(exited.screen)")
    #expect(exited.screen.contains("[exited 143]"), "\(exited.screen)")
    #expect(exited.screen.contains("[tty icanon echo]"), "the terminal's mode:\n\(exited.screen)")
    await window.close()
    await server.stop()
  }

  /// After Ctrl-Z and `fg` (the shell's cooked mode on the terminal meanwhile) the page is drawn
  /// again and Space still turns it without Enter.
  @Test func afterCtrlZAndFgSingleKeysStillTurnPages() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    try BookFiles.serveText(
      id: 84, text: ReaderBinaryTests.oneLineBook(words: 3_000).text, on: server.server)
    let window = try await TerminalWindow.shell(app, columns: 80, rows: 24)
    defer { window.closeNow() }
    let shell = try await window.waitForScreen { Self.lastRow($0) == "$" }
    #expect(shell.held, "\(shell.screen)")
    try await window.typeCommand(["read", "84", "--server", server.url.absoluteString])
    let first = try await window.waitForScreen {
      Self.lastRow($0) == ":" && Self.numbers($0).count > 100
    }
    try #require(first.held, "the reader did not start:\n\(first.screen)")
    let page1 = Self.numbers(try await window.screen())

    try await window.press("C-z")
    let stopped = try await window.waitForScreen {
      $0.contains { $0.contains("Stopped") } && Self.lastRow($0) == "$"
    }
    #expect(stopped.held, "Ctrl-Z did not stop the reader:\n\(stopped.screen)")
    try await window.type("fg")
    try await window.press("Enter")
    // The page is drawn again below the shell's lines, as less does.
    let back = try await window.waitForScreen { screen in
      !screen.contains("$ fg") && Self.lastRow(screen) == ":" && Self.numbers(screen) == page1
    }
    #expect(back.held, "the page was not drawn again after fg:\n\(back.screen)")
    try await window.type(" ")
    let next = try await window.waitForScreen { screen in
      Self.lastRow(screen) == ":" && Self.numbers(screen).first == (page1.last ?? 0) + 1
    }
    #expect(next.held, "Space after fg did not show the next page:\n\(next.screen)")
    try await window.type("q")
    let quit = try await window.waitForScreen { Self.lastRow($0) == "$" }
    #expect(quit.held, "q after fg did not quit:\n\(quit.screen)")
    await window.close()
    await server.stop()
  }
}
