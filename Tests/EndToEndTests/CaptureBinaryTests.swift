import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// The captures in `Screens/` are what the built `gutenberg` binary prints. For every capture
/// whose state the binary can reach without a clock in its output, the binary is run the way a
/// user would reach it (its arguments, the lines typed at its prompt), against the embedded
/// catalogue or a loopback server answering what the captures' Gutendex answers
/// (``RecordedGutendex``), and the capture must appear in its output, byte for byte, as whole
/// lines. `TerminalTests/ScreenCaptureTests` produces the captures from the running app's
/// session; this closes the loop to the shipped executable.
@Suite(.serialized, .ownThread)
struct CaptureBinaryTests {
  static let screens = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Screens")

  /// The server the binary talks to.
  enum Server: Sendable {
    /// None: the embedded catalogue or simulated offline.
    case none
    /// The recorded Gutendex on a loopback port.
    case recorded
    /// The recorded Gutendex, answering every request for page 2 with a 429 (`Retry-After: 30`).
    case rateLimitedOnPage2
    /// The recorded Gutendex while the favourites are saved, then stopped: its port refuses.
    case downAfterSetup
  }

  /// A capture and how the binary reaches it: favourites saved first (`favorites add`), its
  /// arguments and the lines typed at its prompt.
  struct Case: Sendable, CustomTestStringConvertible {
    var capture: String
    var server: Server = .none
    var favorites: [Int] = []
    var arguments: [String] = []
    var input: String
    /// The terminal's width (`COLUMNS`).
    var columns = 100
    /// Compared with standard error instead of standard output.
    var onStandardError = false
    var testDescription: String { capture }
  }

  static let embedded = ["--source", "embedded"]

  static func cases() throws -> [Case] {
    [
      Case(capture: "help", arguments: embedded, input: "?\nq\n"),
      Case(capture: "error-bad-command", arguments: embedded, input: "xyz\nq\n"),
      Case(capture: "error-page-out-of-range", arguments: embedded, input: "g 99999\nq\n"),
      Case(capture: "details-embedded", arguments: embedded, input: "3\nq\n"),
      Case(capture: "suggestion", arguments: embedded, input: "/ les miserables\nq\n"),
      // Nothing listens on 127.0.0.1:1, and `--offline` keeps the binary from trying anyway.
      Case(
        capture: "offline-embedded", arguments: ["--offline", "--server", "http://127.0.0.1:1"],
        input: "lang zh\nq\n"),
      Case(capture: "browse", server: .recorded, favorites: [1342, 84, 2554], input: "q\n"),
      Case(
        capture: "search-results", server: .recorded, favorites: [1400],
        arguments: ["--search", "great expectations", "--language", "en"], input: "q\n"),
      Case(
        capture: "details", server: .recorded, favorites: [2554],
        input: "\(try RecordedGutendex.row(of: 2554, in: "e4-2025-page1"))\nq\n"),
      Case(
        capture: "links", server: .recorded, arguments: ["--language", "de"],
        input: "links \(try RecordedGutendex.row(of: 24746, in: "de__page_1"))\nq\n"),
      Case(
        capture: "narrow", server: .recorded, favorites: [60045, 1982],
        arguments: ["--search", "dream", "--language", "en,ja,zh"], input: "q\n", columns: 60),
      Case(capture: "fallback-rate-limited", server: .rateLimitedOnPage2, input: "n\nq\n"),
      Case(
        capture: "error-server-down", server: .downAfterSetup, favorites: [1342],
        input: "F\nr\nq\n"),
      // A one-shot command's fallback note, on standard error: nothing listens on 127.0.0.1:1.
      Case(
        capture: "note-fallback", arguments: ["list", "--server", "http://127.0.0.1:1"],
        input: "", onStandardError: true),
    ]
  }

  @Test(arguments: try cases())
  func theBinaryPrintsTheCapture(_ test: Case) async throws {
    let capture = try String(
      contentsOf: Self.screens.appendingPathComponent("\(test.capture).txt"), encoding: .utf8)
    var app = try Gutenberg()
    app.extraEnvironment["COLUMNS"] = String(test.columns)
    defer { app.cleanUp() }
    var serverArguments: [String] = []
    var authority: String?
    var server: LoopbackServer?
    if test.server != .none {
      let double = try RecordedGutendex.server()
      if test.server == .rateLimitedOnPage2 {
        double.fail { url, _ in GutendexDouble.page(of: url) == 2 ? .rateLimited(seconds: 30) : nil
        }
      }
      let loopback = LoopbackServer(handler: double)
      let url = try await loopback.start()
      server = loopback
      authority = try #require(url.host).appending(url.port.map { ":\($0)" } ?? "")
      serverArguments = ["--server", url.absoluteString]
    }
    if !test.favorites.isEmpty {
      let saved = try await app.run(
        ["favorites", "add"] + test.favorites.map(String.init) + serverArguments)
      #expect(saved.status == 0, "\(saved)")
    }
    if test.server == .downAfterSetup { await server?.stop() }
    let arguments = test.arguments + serverArguments
    let run = try await app.run(arguments + ["--color", "never"], input: test.input)
    await server?.stop()
    #expect(run.status == 0, "\(run)")
    // The captures' server is gutendex.com, this one a loopback port: messages that name the
    // server name it by its authority, which is the only thing told apart here.
    var out = test.onStandardError ? run.err : run.out
    if let authority { out = out.replacingOccurrences(of: authority, with: "gutendex.com") }
    // Whole lines: the capture starts right after a line break (or at the start).
    let found = out.hasPrefix(capture) || out.contains("\n" + capture)
    #expect(
      found,
      """
      Screens/\(test.capture).txt is not what `gutenberg \(arguments.joined(separator: " "))` \
      prints for \(test.input.debugDescription):
      --- capture
      \(capture)--- binary
      \(out)
      """)
  }
}
