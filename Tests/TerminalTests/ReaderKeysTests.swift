import Catalog
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Terminal

/// The reader's keys as less users expect them (`G`, `gg`, `g 0`, `/` to repeat a search), its
/// last page at 100%, its notes on the prompt's line, and a newline on Ctrl-D.
@MainActor
@Suite(.serialized)
struct ReaderKeysTests {
  /// A person typing `lines` at the reader's prompt (a terminal: prompts are written), then
  /// Ctrl-D; what was on screen when each line was typed is kept.
  final class Keyboard: LineSource {
    let out = Mutex("")
    let lines: Mutex<[String]>
    let screens = Mutex<[String]>([])
    let isInteractive = true
    init(_ lines: [String]) { self.lines = Mutex(lines) }
    func nextLine() async -> String? {
      screens.withLock { $0.append(out.withLock { $0 }) }
      return lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
    func output() -> TerminalOutput {
      TerminalOutput(
        isTerminal: true, errorIsTerminal: false, style: .plain, width: 80,
        writeOut: { text in self.out.withLock { $0 += text } },
        writeErr: { text in self.out.withLock { $0 += text } })
    }
  }

  /// Opens the Frankenstein sample in the reader and types `lines`.
  func read(_ lines: [String]) async throws -> Keyboard {
    let keyboard = Keyboard(lines)
    let output = keyboard.output()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-reader-keys-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("84.txt")
    try FixtureFiles.data("pg84-sample.txt").write(to: file)
    let options = AppOptions(
      dataDirectory: directory.path, source: .embedded, color: .never, environment: [:])
    let app = try await AppContext(options: options, output: output)
    let entry = LibraryEntry(
      id: 84, format: "txt", title: "Frankenstein", path: file.path, size: 1,
      fetchedAt: Date(), validator: nil, url: "https://www.gutenberg.org/ebooks/84.txt.utf-8")
    #expect(
      await ReadRunner(context: app).open(entry, raw: false, pager: true, input: keyboard) == .ok)
    await app.close()
    return keyboard
  }

  @Test func theKeysParse() {
    #expect(PagerCommand.parse("G", searching: false) == .end)
    #expect(PagerCommand.parse("gg", searching: false) == .start)
    #expect(PagerCommand.parse("g 0", searching: false) == .start)
    #expect(PagerCommand.parse("/", searching: false) == .again)
    #expect(PagerCommand.parse("g 5", searching: false) == .line(5))
  }

  @Test func capitalGShowsTheLastPageAt100PercentAndGgTheFirst() async throws {
    let keyboard = try await read(["G", "gg", "g 0"])
    let screens = keyboard.screens.withLock { $0 }
    try #require(screens.count == 4)
    let atEnd = String(screens[1].dropFirst(screens[0].count))
    #expect(atEnd.contains("· 100%\n: "), "\(atEnd)")
    #expect(atEnd.contains("I am by birth a Genevese"), "\(atEnd)")
    let first = String(screens[0].split(separator: "\n").filter { !$0.hasPrefix("(") }.first ?? "")
    for index in 2...3 {
      let again = String(screens[index].dropFirst(screens[index - 1].count))
      #expect(again.contains(first), "\(again)")
      #expect(again.contains("· 0%"), "\(again)")
    }
  }

  @Test func aWrappedSearchSaysSoOnThePromptAndSlashRepeatsIt() async throws {
    let keyboard = try await read(["G", "/Godwin", "/Walton", "/"])
    let screens = keyboard.screens.withLock { $0 }
    try #require(screens.count == 5)
    let wrapped = String(screens[2].dropFirst(screens[1].count))
    #expect(wrapped.contains("Godwin"), "\(wrapped)")
    #expect(wrapped.hasSuffix("(search wrapped to the beginning) : "), "\(wrapped.suffix(200))")
    let next = String(screens[3].dropFirst(screens[2].count))
    let repeated = String(screens[4].dropFirst(screens[3].count))
    #expect(!repeated.contains("unknown command"), "\(repeated)")
    #expect(repeated.contains("Walton") && repeated != next, "\(repeated)")
  }

  @Test func ctrlDEndsThePromptsLine() async throws {
    let keyboard = try await read([])
    #expect(keyboard.out.withLock { $0 }.hasSuffix(": \n"))
  }
}
