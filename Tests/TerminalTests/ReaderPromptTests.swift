import Catalog
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Terminal

/// The reader waits at its own `: ` prompt: the browser's late "working…" line (its timer
/// fires 200 ms into the `read` command, while the reader waits) is never drawn over it.
@MainActor
@Suite(.serialized)
struct ReaderPromptTests {
  /// Standard output and the progress line's writes on a terminal's standard error.
  final class Terminal: Sendable {
    let out = Mutex("")
    let err = Mutex("")

    func output() -> TerminalOutput {
      TerminalOutput(
        isTerminal: true, errorIsTerminal: true, style: .plain, width: 80,
        writeOut: { text in self.out.withLock { $0 += text } },
        writeErr: { text in self.err.withLock { $0 += text } })
    }
  }

  /// A person at the reader's prompt: before answering the first prompt, the runner's
  /// progress timer fires (as it does 200 ms into `read`); then `q`.
  final class LateProgress: LineSource {
    let output: TerminalOutput
    let outputBeforeFirstLine = Mutex<String?>(nil)
    let terminal: Terminal
    let isInteractive = true
    init(_ terminal: Terminal, _ output: TerminalOutput) {
      self.terminal = terminal
      self.output = output
    }
    func nextLine() async -> String? {
      outputBeforeFirstLine.withLock { $0 = $0 ?? terminal.out.withLock { $0 } }
      output.showProgress("working…")
      return "q"
    }
  }

  @Test func theFirstPromptIsTheReadersAndNoProgressLineCoversIt() async throws {
    let terminal = Terminal()
    let output = terminal.output()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gutenberg-reader-prompt-\(UUID().uuidString)", isDirectory: true)
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
    let input = LateProgress(terminal, output)

    #expect(
      await ReadRunner(context: app).open(entry, raw: false, pager: true, input: input) == .ok)

    let shown = try #require(input.outputBeforeFirstLine.withLock { $0 })
    #expect(shown.hasSuffix("%\n: "), "the first prompt is the reader's: \(shown.suffix(120))")
    let progress = terminal.err.withLock { $0 }
    #expect(!progress.contains("working…"), "\(progress)")
  }
}
