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

  @Test func at100By24ThePageNumberIsOnScreenWhileThePromptWaits() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let window = try await TerminalWindow(app, ["--source", "embedded"], columns: 100, rows: 24)
    defer { window.closeNow() }
    for page in 1...2 {
      if page == 2 { try await window.press("Enter") }
      let shown = try await window.waitForScreen { screen in
        Self.lastRow(screen) == ">" && screen.contains { $0.contains("page \(page) of") }
      }
      #expect(shown.held, "page \(page): no page number with the prompt:\n\(shown.screen)")
    }
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
    var last = words(try await window.screen()).numbers.max() ?? 0
    try #require(last > 100, "\(first.screen)")

    try await window.resize(columns: 60, rows: 20)
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
}
