import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// The browser's prompt on a real terminal (tmux): a line editor with a history kept in the
/// data directory, a prompt that output from elsewhere never leaves lying, and job control as
/// any program has it.
@Suite(.serialized, .ownThread)
struct LineEditorTests {
  /// The last prompt line of `screen`.
  static func promptLine(_ screen: [String]) -> String {
    screen.last { $0.hasPrefix("> ") } ?? ""
  }

  @Test func upRecallsTheLastSearchEvenInANewProcess() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let first = try await TerminalWindow(app, ["--source", "embedded"], columns: 100, rows: 30)
    defer { first.closeNow() }
    let started = try await first.waitForScreen { $0.contains { $0.contains("page 1 of") } }
    #expect(started.held, "\(started.screen)")
    try await first.type("/ dickens")
    try await first.press("Enter")
    let searched = try await first.waitForScreen {
      $0.contains { $0.hasPrefix("search \"dickens\"") }
    }
    #expect(searched.held, "the search did not run:\n\(searched.screen)")
    try await first.type("q")
    try await first.press("Enter")
    #expect(try await first.waitForExit(), "q did not end the browser")
    await first.close()
    let history = try String(
      contentsOf: app.dataDirectory.appendingPathComponent("history"), encoding: .utf8)
    #expect(history.contains("dickens"), "\(history)")

    let second = try await TerminalWindow(app, ["--source", "embedded"], columns: 100, rows: 30)
    defer { second.closeNow() }
    let again = try await second.waitForScreen { $0.contains { $0.contains("page 1 of") } }
    #expect(again.held, "\(again.screen)")
    // ↑ once is `q`, twice is the search.
    try await second.press("Up", "Up")
    let recalled = try await second.waitForScreen { Self.promptLine($0) == "> / dickens" }
    #expect(recalled.held, "↑↑ did not recall the search:\n\(recalled.screen)")
    await second.close()
  }

  @Test func aFavouriteFromAnotherProcessLeavesTheHalfTypedLineOnThePrompt() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let list = try await app.run(["list", "--source", "embedded"])
    let ids = list.outLines.compactMap { Int($0.split(separator: "\t").first ?? "") }
    let id = try #require(ids.dropFirst(2).first, "\(list)")

    let window = try await TerminalWindow(app, ["--source", "embedded"], columns: 100, rows: 40)
    defer { window.closeNow() }
    let started = try await window.waitForScreen { $0.contains { $0.contains("page 1 of") } }
    #expect(started.held, "\(started.screen)")
    try await window.type("/ dick")
    let typed = try await window.waitForScreen { Self.promptLine($0) == "> / dick" }
    #expect(typed.held, "the typed text is not shown:\n\(typed.screen)")

    let add = try await app.run(["favorites", "add", String(id), "--source", "embedded"])
    #expect(add.status == 0, "\(add)")
    // The page is drawn again with the star, and the last line is still the prompt with
    // `/ dick`, the cursor after it.
    let redrawn = try await window.waitForScreen { screen in
      screen.contains { $0.dropFirst(4).first == "*" } && screen.last { !$0.isEmpty } == "> / dick"
    }
    #expect(redrawn.held, "the prompt line lies after the redraw:\n\(redrawn.screen)")
    let screen = try await window.screen()
    let cursor = try await window.cursor()
    #expect(screen.indices.contains(cursor.row) && screen[cursor.row] == "> / dick")
    #expect(cursor.column == 8, "cursor at \(cursor)")

    // And Enter runs what the screen shows.
    try await window.type("ens")
    try await window.press("Enter")
    let searched = try await window.waitForScreen {
      $0.contains { $0.hasPrefix("search \"dickens\"") }
    }
    #expect(searched.held, "\(searched.screen)")
    await window.close()
  }

  /// The last row with text on it.
  static func lastRow(_ screen: [String]) -> String {
    screen.last { !$0.isEmpty } ?? ""
  }

  /// Ctrl-Z stops the browser as it stops any program, and after `fg` the prompt is drawn again
  /// with the half-typed line, the editor's keys working (the shell had put the terminal in its
  /// own mode meanwhile: Ctrl-U was the terminal's, and the line grew behind the editor's back).
  /// Ended by SIGTERM or SIGHUP at the prompt (libedit's mode on the terminal: no canonical
  /// input, no echo), the browser gives the terminal its own mode back first, then ends by that
  /// signal as before; its parent here is no interactive shell that would set the mode again.
  @Test(arguments: [SIGTERM, SIGHUP])
  func aSignalAtThePromptGivesTheTerminalItsModeBack(signal: Int32) async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let window = try await TerminalWindow(app, ["--source", "embedded"], columns: 100, rows: 30)
    defer { window.closeNow() }
    try await window.type("/ dick")
    let typed = try await window.waitForScreen { Self.lastRow($0) == "> / dick" }
    try #require(typed.held, "\(typed.screen)")
    #expect(try await window.signalProgram(signal) == 1)
    let exited = try await window.waitForScreen { $0.contains { $0.hasPrefix("[tty ") } }
    #expect(exited.held, "\(exited.screen)")
    #expect(exited.screen.contains("[exited \(128 + signal)]"), "\(exited.screen)")
    #expect(exited.screen.contains("[tty icanon echo]"), "the terminal's mode:\n\(exited.screen)")
    await window.close()
  }

  @Test func ctrlZThenFgGivesThePromptBack() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let window = try await TerminalWindow.shell(app, columns: 100, rows: 30)
    defer { window.closeNow() }
    let shell = try await window.waitForScreen { Self.lastRow($0) == "$" }
    #expect(shell.held, "\(shell.screen)")
    try await window.typeCommand(["--source", "embedded"])
    let started = try await window.waitForScreen {
      $0.contains { $0.contains("page 1 of") } && Self.lastRow($0) == ">"
    }
    #expect(started.held, "\(started.screen)")
    try await window.type("/ dick")
    let typed = try await window.waitForScreen { Self.lastRow($0) == "> / dick" }
    #expect(typed.held, "\(typed.screen)")

    try await window.press("C-z")
    let stopped = try await window.waitForScreen {
      $0.contains { $0.contains("Stopped") } && Self.lastRow($0) == "$"
    }
    #expect(stopped.held, "Ctrl-Z did not stop the browser:\n\(stopped.screen)")
    try await window.type("fg")
    try await window.press("Enter")
    let back = try await window.waitForScreen { Self.lastRow($0) == "> / dick" }
    #expect(back.held, "the prompt was not drawn again after fg:\n\(back.screen)")

    try await window.press("C-u")
    try await window.type("/ twain")
    try await window.press("Enter")
    let searched = try await window.waitForScreen {
      $0.contains { $0.hasPrefix("search \"twain\"") } && Self.lastRow($0) == ">"
    }
    #expect(searched.held, "the editor's keys after fg:\n\(searched.screen)")
    try await window.type("q")
    try await window.press("Enter")
    let quit = try await window.waitForScreen { Self.lastRow($0) == "$" }
    #expect(quit.held, "\(quit.screen)")
    try await window.type(
      #"stty -a | tr ' ;' '\n\n' | grep -x -e '-*icanon' -e '-*echo' | paste -sd,"#)
    try await window.press("Enter")
    let mode = try await window.waitForScreen { $0.contains("icanon,echo") }
    #expect(mode.held, "the terminal's mode after q:\n\(mode.screen)")
    await window.close()
  }
}
