import Foundation
import Gutendex
import Testing

@testable import Terminal

/// The browser's `send` and the details' `Progress:` line: how the prompt reads `send`, what
/// the reducer asks the session to do, and how the line is drawn.
@Suite struct SendCommandTests {
  let parser = PromptParser()

  @Test(arguments: [
    ("send 3 /media/KOBOeReader", PromptCommand.send(row: 3, to: "/media/KOBOeReader")),
    ("send 3 mail:me_abc@kindle.com", .send(row: 3, to: "mail:me_abc@kindle.com")),
    ("send 2", .send(row: 2, to: nil)), ("send", .send(row: nil, to: nil)),
    ("send ~/KOBOeReader", .send(row: nil, to: "~/KOBOeReader")),
  ])
  func theBrowserReadsSend(_ line: String, _ command: PromptCommand) throws {
    #expect(try parser.parse(line, context: .browse) == command)
  }

  @Test func theDetailsShowTheLastRecord() throws {
    var screen = DetailScreen(book: BrowserReducerTests.book(id: 84, title: "Frankenstein"))
    #expect(!screen.lines(width: 100, style: .plain).contains { $0.hasPrefix("Progress:") })
    screen.progress = "on Kobo: 42%, 2 h ago"
    let lines = screen.lines(width: 100, style: .plain)
    #expect(lines.contains("Progress:     on Kobo: 42%, 2 h ago"), "\(lines)")
  }
}

extension SendCommandTests {
  @Test func sendOnARowIsAnEffectForItsBook() {
    var state = BrowserReducerTests.started()
    let effects = BrowserReducer.reduce(&state, .command(.send(row: 2, to: "mail:me@kindle.com")))
    #expect(effects == [.send(BrowserReducerTests.books[1], to: "mail:me@kindle.com")])
    let none = BrowserReducer.reduce(&state, .command(.send(row: 99, to: nil)))
    #expect(none.isEmpty && !BrowserReducerTests.errors(state).isEmpty, "row 99 is not shown")
  }
}
