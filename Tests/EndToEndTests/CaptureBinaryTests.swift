import Foundation
import Testing

@testable import TestSupport

/// The captures in `Screens/` are what the built `gutenberg` binary prints: for every capture
/// whose state the binary can reach on its own (the embedded catalogue, simulated offline, no
/// clock in the output), the binary is run with the same commands, and the capture must appear
/// in its output, byte for byte, as whole lines. `TerminalTests/ScreenCaptureTests` produces the
/// captures from the running app's session; this closes the loop to the shipped executable.
@Suite(.serialized)
struct CaptureBinaryTests {
  static let screens = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Screens")

  /// A capture and how the binary reaches it: its arguments and the lines typed at its prompt.
  struct Case: Sendable, CustomTestStringConvertible {
    var capture: String
    var arguments: [String]
    var input: String
    /// Compared with standard error instead of standard output.
    var onStandardError = false
    var testDescription: String { capture }
  }

  static let cases = [
    Case(capture: "help", arguments: ["--source", "embedded"], input: "?\nq\n"),
    Case(capture: "error-bad-command", arguments: ["--source", "embedded"], input: "xyz\nq\n"),
    Case(
      capture: "error-page-out-of-range", arguments: ["--source", "embedded"],
      input: "g 99999\nq\n"),
    Case(capture: "details-embedded", arguments: ["--source", "embedded"], input: "3\nq\n"),
    // Nothing listens on 127.0.0.1:1, and `--offline` keeps the binary from trying anyway.
    Case(
      capture: "offline-embedded", arguments: ["--offline", "--server", "http://127.0.0.1:1"],
      input: "lang zh\nq\n"),
    Case(
      capture: "note-fallback", arguments: ["list", "--server", "http://127.0.0.1:1"], input: "",
      onStandardError: true),
  ]

  @Test(arguments: cases)
  func theBinaryPrintsTheCapture(_ test: Case) async throws {
    let capture = try String(
      contentsOf: Self.screens.appendingPathComponent("\(test.capture).txt"), encoding: .utf8)
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let run = try await app.run(test.arguments + ["--color", "never"], input: test.input)
    #expect(run.status == 0, "\(run)")
    let printed = test.onStandardError ? run.err : run.out
    // Whole lines: the capture starts right after a line break (or at the start).
    let found = printed.hasPrefix(capture) || printed.contains("\n" + capture)
    #expect(
      found,
      """
      Screens/\(test.capture).txt is not what `gutenberg \(test.arguments.joined(separator: " "))` \
      prints for \(test.input.debugDescription):
      --- capture
      \(capture)--- binary
      \(printed)
      """)
  }
}
