import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Text typed at the prompts of a real terminal (tmux, 80x24) reaches the commands whole, in any
/// script, with colour on and off: the line editor reads UTF-8 even when the environment names
/// no locale, Tab completes language names in their own script, and Ctrl-C drops the typed line
/// as a shell does, never quitting; keys typed while a command runs wait for the prompt.
@Suite(.serialized, .ownThread)
struct TypedTextTests {
  /// The last row with text on it.
  static func lastRow(_ screen: [String]) -> String {
    screen.last { !$0.isEmpty } ?? ""
  }

  /// The app with colour on (as a user has it: `NO_COLOR` empty counts as unset) or off, and
  /// the environment's locale (`C.UTF-8` by default; `nil` for none at all).
  static func app(color: Bool, locale: String? = "C.UTF-8") throws -> Gutenberg {
    var app = try Gutenberg()
    app.extraEnvironment["NO_COLOR"] = color ? "" : "1"
    app.extraEnvironment["LANG"] = locale ?? ""
    return app
  }

  @Test(arguments: [(true, "C.UTF-8"), (false, "C.UTF-8"), (true, nil)] as [(Bool, String?)])
  func accentedAndCJKWordsReachTheQuery(color: Bool, locale: String?) async throws {
    let app = try Self.app(color: color, locale: locale)
    defer { app.cleanUp() }
    let window = try await TerminalWindow(app, ["--source", "local"], columns: 80, rows: 24)
    defer { window.closeNow() }
    let started = try await window.waitForScreen { $0.contains { $0.contains("page 1 of") } }
    #expect(started.held, "\(started.screen)")

    try await window.type("/ misérables")
    try await window.press("Enter")
    let searched = try await window.waitForScreen {
      $0.contains { $0.contains("search \"misérables\"") }
        && $0.contains { $0.contains("Les Misérables") }
    }
    #expect(searched.held, "the accent did not reach the search:\n\(searched.screen)")

    try await window.type("lang français")
    try await window.press("Enter")
    let language = try await window.waitForScreen {
      $0.contains { $0.contains("lang fr") && $0.contains("search \"misérables\"") }
    }
    #expect(language.held, "lang français was not understood:\n\(language.screen)")

    try await window.type("reset")
    try await window.press("Enter")
    try await window.type("/ 紅樓夢")
    try await window.press("Enter")
    let chinese = try await window.waitForScreen {
      $0.contains { $0.contains("search \"紅樓夢\"") } && $0.contains { $0.contains("補紅樓夢") }
    }
    #expect(chinese.held, "the CJK search did not run:\n\(chinese.screen)")
    try await window.type("q")
    try await window.press("Enter")
    #expect(try await window.waitForExit())
    await window.close()
  }

  @Test func ctrlCDropsTheTypedLineAndNeverQuits() async throws {
    let app = try Self.app(color: true)
    defer { app.cleanUp() }
    let window = try await TerminalWindow(app, ["--source", "local"], columns: 80, rows: 24)
    defer { window.closeNow() }
    let started = try await window.waitForScreen { Self.lastRow($0) == ">" }
    #expect(started.held, "\(started.screen)")

    try await window.type("/ dickens")
    let typed = try await window.waitForScreen { Self.lastRow($0) == "> / dickens" }
    #expect(typed.held, "\(typed.screen)")
    try await window.press("C-c")
    let dropped = try await window.waitForScreen { screen in
      Self.lastRow(screen) == ">" && screen.contains { $0.hasPrefix("> / dickens^C") }
    }
    #expect(dropped.held, "Ctrl-C did not drop the line:\n\(dropped.screen)")
    try await window.press("C-c")
    let again = try await window.waitForScreen { screen in
      Self.lastRow(screen) == ">" && screen.filter { $0.hasPrefix("> ^C") }.count == 1
    }
    #expect(again.held, "the second Ctrl-C:\n\(again.screen)")
    let screen = try await window.screen()
    #expect(!screen.contains { $0.hasPrefix("[exited") }, "Ctrl-C quit:\n\(screen)")

    // The dropped line ran nothing, and the browser still answers.
    #expect(!screen.contains { $0.contains("search \"dickens\"") })
    try await window.type("/ twain")
    try await window.press("Enter")
    let searched = try await window.waitForScreen {
      $0.contains { $0.contains("search \"twain\"") }
    }
    #expect(searched.held, "\(searched.screen)")
    try await window.press("C-d")
    let exited = try await window.waitForScreen { $0.contains("[exited 0]") }
    #expect(exited.held, "Ctrl-D on an empty line did not quit with 0:\n\(exited.screen)")
    await window.close()
  }

  /// Keys typed while a search waits for the server are kept for the next prompt: text is
  /// drawn once, on the prompt (the terminal does not echo it among the results), and Ctrl-D
  /// still quits with 0 (in the terminal's cooked mode it was its end-of-file, which reached
  /// the editor as a NUL byte and was lost).
  @Test func keysTypedWhileASearchRunsWaitForThePrompt() async throws {
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    let app = try Self.app(color: true)
    defer { app.cleanUp() }
    let window = try await TerminalWindow(
      app, ["--server", server.url.absoluteString, "--source", "server"], columns: 80, rows: 24)
    defer { window.closeNow() }
    // The start's background sync asks the server too: held, it would be the request
    // waited for (a loaded run saw it so), so the hold begins once it has said how it went.
    let started = try await window.waitForScreen {
      $0.contains { $0.contains("page 1 of") } && Self.lastRow($0) == ">"
        && $0.contains { $0.hasPrefix("Background sync") }
    }
    #expect(started.held, "\(started.screen)")

    server.server.faults = FaultPlan(holdUntilReleased: true)
    try await window.type("/ twain")
    try await window.press("Enter")
    try await Awaiting.condition("the search to reach the server") { server.server.heldCount == 1 }
    try await window.type("/ dick")
    server.server.faults = FaultPlan()
    server.server.releaseHeld()
    let searched = try await window.waitForScreen {
      $0.contains { $0.contains("search \"twain\"") } && Self.lastRow($0) == "> / dick"
    }
    #expect(searched.held, "the typed-ahead text is not on the prompt:\n\(searched.screen)")
    let screen = try await window.screen()
    #expect(
      screen.filter { $0.contains("/ dick") }.count == 1,
      "echoed among the results:\n\(screen.joined(separator: "\n"))")

    try await window.press("C-u")
    server.server.faults = FaultPlan(holdUntilReleased: true)
    try await window.type("/ austen")
    try await window.press("Enter")
    try await Awaiting.condition("the second search to reach the server") {
      server.server.heldCount == 1
    }
    try await window.press("C-d")
    server.server.faults = FaultPlan()
    server.server.releaseHeld()
    let exited = try await window.waitForScreen { $0.contains("[exited 0]") }
    #expect(exited.held, "Ctrl-D typed during the search did not quit with 0:\n\(exited.screen)")
    #expect(exited.screen.contains("search \"austen\""), "\(exited.screen)")
    #expect(exited.screen.contains("[tty icanon echo]"), "the terminal's mode:\n\(exited.screen)")
    await window.close()
  }

  @Test func tabCompletesLanguageNamesInTheirOwnScriptAndISOCodes() async throws {
    let app = try Self.app(color: true)
    defer { app.cleanUp() }
    let window = try await TerminalWindow(app, ["--source", "local"], columns: 80, rows: 24)
    defer { window.closeNow() }
    let started = try await window.waitForScreen { Self.lastRow($0) == ">" }
    #expect(started.held, "\(started.screen)")
    for (typed, completed) in [
      ("lang deu", "> lang deutsch"), ("lang eng", "> lang en"), ("lang рус", "> lang русский"),
      ("lang Fran", "> lang français"),
    ] {
      try await window.type(typed)
      try await window.press("Tab")
      let shown = try await window.waitForScreen { Self.lastRow($0) == completed }
      #expect(shown.held, "\(typed) + Tab:\n\(shown.screen)")
      try await window.press("C-u")
    }
    try await window.type("lang рус")
    try await window.press("Tab")
    try await window.press("Enter")
    let filtered = try await window.waitForScreen { $0.contains { $0.hasPrefix("lang ru ·") } }
    #expect(filtered.held, "\(filtered.screen)")
    await window.close()
  }

  @Test(arguments: [true, false])
  func theReaderFindsATypedAccentedWord(color: Bool) async throws {
    let filler = (1...600).map { "Line \($0) of the story, in plain words." }
    let text =
      "The Project Gutenberg eBook of Les Misérables\r\n\r\n"
      + "*** START OF THE PROJECT GUTENBERG EBOOK LES MISÉRABLES ***\r\n\r\n"
      + filler.joined(separator: "\r\n") + "\r\n\r\nMonseigneur Bienvenu était évêque de Digne.\r\n"
      + filler.joined(separator: "\r\n")
      + "\r\n*** END OF THE PROJECT GUTENBERG EBOOK LES MISÉRABLES ***\r\n"
    let server = try await TestServer.start()
    defer { Task { await server.stop() } }
    try BookFiles.serveText(id: 84, text: Data(text.utf8), on: server.server)
    let app = try Self.app(color: color).mirrored(to: server.url)
    defer { app.cleanUp() }
    let window = try await TerminalWindow(
      app, ["read", "84", "--server", server.url.absoluteString], columns: 80, rows: 24)
    defer { window.closeNow() }
    let first = try await window.waitForScreen { Self.lastRow($0) == ":" }
    #expect(first.held, "the reader did not start:\n\(first.screen)")
    #expect(!first.screen.contains("évêque"))

    try await window.type("/évêque")
    try await window.press("Enter")
    let found = try await window.waitForScreen { screen in
      // The match is marked: in reverse video with colour, between » and « without.
      screen.contains { $0.contains("Bienvenu était") && $0.contains("évêque") }
        && Self.lastRow(screen) == ":"
    }
    #expect(found.held, "the typed word was not found:\n\(found.screen)")
    #expect(!found.screen.contains("not found"))
    try await window.type("q")
    try await window.press("Enter")
    #expect(try await window.waitForExit())
    // The reader's key mode and the prompt's editor both gave the terminal back.
    let screen = try await window.screen()
    #expect(screen.contains("[tty icanon echo]"), "\(screen.joined(separator: "\n"))")
    await window.close()
  }
}
