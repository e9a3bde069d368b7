import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Pages follow the window (tmux, a real terminal): the browser's "where am I" line is on
/// screen with the prompt at any height, and the reader re-cuts its pages when the window
/// changes size, skipping nothing.
@Suite(.serialized, .ownThread)
struct WindowSizeTests {
  /// The last row with text on it.
  static func lastRow(_ screen: [String]) -> String {
    screen.last { !$0.isEmpty } ?? ""
  }

  /// The rows of a list screen: `  3 * Title …`, by number and the text after it.
  static func rows(_ screen: [String]) -> [(number: Int, text: String)] {
    screen.compactMap { line in
      let trimmed = line.drop { $0 == " " }
      guard line.first == " ", let number = Int(trimmed.prefix { $0.isNumber }) else {
        return nil
      }
      return (number, String(trimmed.drop { $0.isNumber }).trimmingCharacters(in: .whitespaces))
    }
  }

  /// Enter walks the list a screenful at a time across the server's pages of 32: every
  /// screen fits the window with its heading on top and the prompt at the bottom, rows are
  /// numbered from 1 on each screen, no row is shown twice, and none is skipped.
  @Test(arguments: [true, false])
  func enterWalksTheListAScreenfulAtATimeWithoutASeam(color: Bool) async throws {
    var app = try Gutenberg()
    app.extraEnvironment["NO_COLOR"] = color ? "" : "1"
    defer { app.cleanUp() }
    let list = try await app.run(["list", "--source", "local", "--page", "1"])
    let second = try await app.run(["list", "--source", "local", "--page", "2"])
    let titles = (list.outLines + second.outLines).map { $0.split(separator: "\t")[1] }
    try #require(titles.count == 64, "\(list)")
    let window = try await TerminalWindow(app, ["--source", "local"], columns: 80, rows: 24)
    defer { window.closeNow() }
    var seen = 0
    for step in 0..<3 {
      if step > 0 { try await window.press("Enter") }
      let from = seen + 1
      let shown = try await window.waitForScreen { screen in
        Self.lastRow(screen) == ">" && screen.contains { $0.hasPrefix("all books · \(from)–") }
      }
      #expect(shown.held, "step \(step): no screen from row \(from):\n\(shown.screen)")
      let screen = try await window.screen()
      // The heading is the window's first or second row (the typed line may be above it).
      let heading = try #require(screen.firstIndex { $0.hasPrefix("all books · ") })
      #expect(heading <= 1, "the heading scrolled away:\n\(shown.screen)")
      let rows = Self.rows(screen)
      #expect(rows.map(\.number) == Array(1...max(1, rows.count)), "\(shown.screen)")
      #expect(rows.count >= 15, "\(shown.screen)")
      for (offset, row) in rows.enumerated() {
        let expected = String(titles[seen + offset])
        #expect(
          row.text.hasPrefix(expected.prefix(8)), "row \(row.number): \(row.text) ≠ \(expected)")
      }
      #expect(screen.allSatisfy { $0.count <= 80 })
      seen += rows.count
    }
    #expect(seen > 32, "the walk never crossed into the server's second page")
    await window.close()
  }

  /// A screen taller than the window (help, a book's details) shows its heading, a window
  /// of its body and where it is; Enter shows the rest, then goes back to the list.
  @Test func aTallScreenIsShownAWindowAtATimeWithItsHeading() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let window = try await TerminalWindow(app, ["--source", "local"], columns: 80, rows: 16)
    defer { window.closeNow() }
    _ = try await window.waitForScreen { Self.lastRow($0) == ">" }
    try await window.type("?")
    try await window.press("Enter")
    let first = try await window.waitForScreen { screen in
      screen.contains("Commands") && screen.contains { $0.hasPrefix("lines 1–") }
        && Self.lastRow(screen) == ">"
    }
    #expect(first.held, "\(first.screen)")
    var rest = first
    for _ in 0..<5 where !rest.screen.contains("q, Ctrl-D") {
      let before = rest.screen
      try await window.press("Enter")
      rest = try await window.waitForScreen { screen in
        screen.joined(separator: "\n") != before && screen.contains("Commands")
          && Self.lastRow(screen) == ">"
      }
      #expect(rest.held, "Enter showed nothing more:\n\(rest.screen)")
    }
    #expect(rest.screen.contains("q, Ctrl-D"), "\(rest.screen)")
    let heading = try #require(try await window.screen().firstIndex(of: "Commands"))
    #expect(heading <= 1, "\(rest.screen)")
    try await window.press("Enter")
    let back = try await window.waitForScreen { $0.contains { $0.hasPrefix("all books · 1–") } }
    #expect(back.held, "Enter at the end did not go back to the list:\n\(back.screen)")

    // A book's details: its title stays on top, a window of its fields under it.
    let title = try #require(Self.rows(try await window.screen()).first?.text.prefix(12))
    try await window.type("1")
    try await window.press("Enter")
    let details = try await window.waitForScreen { screen in
      screen.contains { $0.hasPrefix("lines 1–") } && Self.lastRow(screen) == ">"
        && (screen.prefix(2).contains { $0.hasPrefix(String(title)) })
    }
    #expect(details.held, "the details' title is not on top:\n\(details.screen)")
    await window.close()
  }

  /// A resize draws the screen again at once, cut to the new window, with no key pressed.
  @Test func aResizeRedrawsTheListWithoutAKey() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let window = try await TerminalWindow(app, ["--source", "local"], columns: 80, rows: 24)
    defer { window.closeNow() }
    let first = try await window.waitForScreen { $0.contains { $0.hasPrefix("all books · 1–") } }
    #expect(first.held, "\(first.screen)")
    let before = Self.rows(try await window.screen()).count
    try await window.resize(columns: 100, rows: 40)
    let taller = try await window.waitForScreen { screen in
      Self.rows(screen).count > before + 10 && Self.lastRow(screen) == ">"
    }
    #expect(taller.held, "no redraw after growing the window:\n\(taller.screen)")
    try await window.resize(columns: 60, rows: 15)
    let smaller = try await window.waitForScreen { screen in
      screen.contains { $0.hasPrefix("all books · 1–") } && Self.lastRow(screen) == ">"
        && screen.allSatisfy { $0.count <= 60 }
    }
    #expect(smaller.held, "no redraw after shrinking the window:\n\(smaller.screen)")
    await window.close()
  }

  @Test func aResizeMidReadRecutsThePagesAndSkipsNoText() async throws {
    let book = ReaderBinaryTests.oneLineBook(words: 3_000)
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: book.text, on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let window = try await TerminalWindow(
      app, ["read", "84", "--server", server.url.absoluteString], columns: 100, rows: 30)
    defer { window.closeNow() }

    /// The numbers of the `wordN` on screen, and any token the page shows that is not a whole
    /// word of the text (a row cut by the terminal's own wrapping).
    func words(_ screen: [String]) -> (numbers: [Int], broken: [String]) {
      var numbers: [Int] = []
      var broken: [String] = []
      for row in screen where !row.contains(" · line ") && !row.hasPrefix("(") {
        for token in row.split(separator: " ") where token != ":" {
          if token.hasPrefix("word"), let number = Int(token.dropFirst(4)) {
            numbers.append(number)
          } else if !["Chapter", "1", "The", "end."].contains(token) {
            broken.append(String(token))
          }
        }
      }
      return (numbers, broken)
    }

    let first = try await window.waitForScreen { Self.lastRow($0) == ":" }
    #expect(first.held, "the reader did not start:\n\(first.screen)")
    let before = words(try await window.screen()).numbers
    try #require((before.max() ?? 0) > 100, "\(first.screen)")

    // The resize draws the page again at once, from the same first word, cut to the window.
    try await window.resize(columns: 60, rows: 20)
    let redrawn = try await window.waitForScreen { screen in
      Self.lastRow(screen) == ":" && screen.allSatisfy { $0.count <= 60 }
        && words(screen).numbers.min() == before.min()
    }
    #expect(redrawn.held, "the page was not redrawn from where it was:\n\(redrawn.screen)")
    var last = words(try await window.screen()).numbers.max() ?? 0
    for _ in 1...3 {
      try await window.press("Enter")
      let page = try await window.waitForScreen { screen in
        Self.lastRow(screen) == ":" && (words(screen).numbers.max() ?? 0) > last
      }
      #expect(page.held, "no next page after the resize:\n\(page.screen)")
      let screen = try await window.screen()
      let shown = words(screen)
      #expect(shown.broken.isEmpty, "rows wider than the window:\n\(page.screen)")
      #expect(screen.allSatisfy { $0.count <= 60 })
      let firstShown = try #require(shown.numbers.min())
      #expect(firstShown <= last + 1, "words \(last + 1)..<\(firstShown) skipped:\n\(page.screen)")
      #expect(shown.numbers == Array(firstShown...(shown.numbers.max() ?? firstShown)))
      last = shown.numbers.max() ?? last
    }
    try await window.type("q")
    try await window.press("Enter")
    #expect(try await window.waitForExit())
    await window.close()
    await server.stop()
  }

  /// A book of `chapters` chapters, each a heading set off by blank lines and a paragraph.
  static func chapteredBook(chapters: Int) -> Data {
    var text =
      "The Project Gutenberg eBook of Frankenstein\r\n\r\n"
      + "*** START OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***\r\n"
    for number in 1...chapters {
      text += "\r\n\r\nCHAPTER \(number)\r\n\r\n"
      text += (1...60).map { "word\(number)x\($0)" }.joined(separator: " ") + "\r\n"
    }
    text += "\r\n*** END OF THE PROJECT GUTENBERG EBOOK FRANKENSTEIN ***\r\n"
    return Data(text.utf8)
  }

  /// A resize draws the reader's page again at once, cut to the new window, with no key.
  @Test func aResizeRedrawsTheReadersPageWithoutAKey() async throws {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: Self.chapteredBook(chapters: 40), on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let window = try await TerminalWindow(
      app, ["read", "84", "--server", server.url.absoluteString], columns: 100, rows: 30)
    defer { window.closeNow() }
    let first = try await window.waitForScreen { Self.lastRow($0) == ":" }
    #expect(first.held, "the reader did not start:\n\(first.screen)")
    #expect(try await window.screen().contains { $0.count > 60 }, "\(first.screen)")
    try await window.resize(columns: 60, rows: 20)
    let redrawn = try await window.waitForScreen { screen in
      Self.lastRow(screen) == ":" && screen.allSatisfy { $0.count <= 60 }
        && screen.contains { $0.contains(" · line ") }
    }
    #expect(redrawn.held, "the page was not cut to the new window:\n\(redrawn.screen)")
    try await window.type("q")
    try await window.press("Enter")
    #expect(try await window.waitForExit())
    await window.close()
    await server.stop()
  }

  /// A table of contents taller than the window keeps its heading in view, a window at a time;
  /// Enter after its end shows the page again.
  @Test func aLongTableOfContentsIsShownAWindowAtATime() async throws {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 84, text: Self.chapteredBook(chapters: 60), on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let window = try await TerminalWindow(
      app, ["read", "84", "--server", server.url.absoluteString], columns: 80, rows: 24)
    defer { window.closeNow() }
    _ = try await window.waitForScreen { Self.lastRow($0) == ":" }
    try await window.type("toc")
    try await window.press("Enter")
    let first = try await window.waitForScreen { screen in
      screen.contains { $0.hasPrefix("Contents") } && screen.contains { $0.hasPrefix("lines 1–") }
        && Self.lastRow(screen) == ":"
    }
    #expect(first.held, "\(first.screen)")
    var last = first
    for _ in 0..<6 where !last.screen.contains("60. CHAPTER 60") {
      let before = last.screen
      try await window.press("Enter")
      last = try await window.waitForScreen { screen in
        screen.joined(separator: "\n") != before && Self.lastRow(screen) == ":"
      }
      let screen = try await window.screen()
      let heading = screen.firstIndex { $0.hasPrefix("Contents") }
      #expect(heading != nil && heading! <= 1, "the heading scrolled away:\n\(last.screen)")
    }
    #expect(last.screen.contains("60. CHAPTER 60"), "\(last.screen)")
    try await window.press("Enter")
    let page = try await window.waitForScreen { screen in
      screen.contains { $0.contains(" · line ") } && !screen.contains { $0.hasPrefix("lines ") }
    }
    #expect(page.held, "Enter after the contents did not show the page:\n\(page.screen)")
    try await window.type("toc 60")
    try await window.press("Enter")
    let chapter = try await window.waitForScreen { $0.contains("CHAPTER 60") }
    #expect(chapter.held, "\(chapter.screen)")
    await window.close()
    await server.stop()
  }
}
