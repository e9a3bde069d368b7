import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// Book files whose server announces a length no file has: `gutenberg get` says "bad data" in
/// one line (exit 65) or shows a progress line it can draw, and never crashes.
@Suite(.serialized, .ownThread)
struct BadLengthTests {
  static func fileHead(_ lengths: String) -> String {
    "HTTP/1.1 200 OK\r\nContent-Type: application/epub+zip\r\nETag: \"v1\"\r\n"
      + "Accept-Ranges: bytes\r\n" + lengths + "\r\n"
  }

  @Test(arguments: [
    "Content-Length: -5\r\n",
    "Content-Length: 10\r\nContent-Length: 20\r\n",
    "Content-Length: 99999999999999999999\r\n",
  ])
  func aLengthNoFileHasIsBadDataInOneLine(lengths: String) async throws {
    let responder = try RawResponder(response: Self.fileHead(lengths) + "0123456789")
    defer { responder.stop() }
    let app = try Gutenberg().mirrored(to: responder.url)
    defer { app.cleanUp() }
    let run = try await app.run(["get", "84", "--source", "embedded"], input: "")
    #expect(run.status == 65, "\(run)")
    #expect(run.errLines.count == 1, "\(run)")
    #expect(run.err.contains("bad data"), "\(run)")
    #expect(!run.err.contains("Fatal error"), "\(run)")
    let left = try FileManager.default.contentsOfDirectory(atPath: app.root.path)
    #expect(!left.contains { $0.hasPrefix("84-") && !$0.hasSuffix(".lock") }, "\(left)")
  }

  /// `Content-Length: 9223372036854775807` and a body that trickles, on a terminal (the
  /// progress line is drawn only there): the line shows an unknown ETA, and the stall ends the
  /// download with its one-line error, the part kept.
  @Test func theLargestLengthOnATerminalDrawsAndStalls() async throws {
    let responder = try RawResponder(
      response: Self.fileHead("Content-Length: 9223372036854775807\r\n")
        + String(repeating: "x", count: 70_000),
      connections: 4, holdOpen: .seconds(20))
    defer { responder.stop() }
    let app = try Gutenberg().mirrored(to: responder.url)
    defer { app.cleanUp() }
    // script(1) gives the binary a terminal; -e passes its exit status on.
    let command =
      "cd '\(app.root.path)' && exec '\(Gutenberg.binary)' get 84 --source embedded --timeout 1"
    let child = try ChildProcess(
      executable: "/usr/bin/script", arguments: ["-qec", command, "/dev/null"],
      environment: app.environment)
    child.closeInput()
    let exit = await child.wait(timeout: .seconds(60))
    let screen = String(decoding: child.stdout, as: UTF8.self)
    #expect(!screen.contains("Fatal error"), "\(screen)")
    #expect(screen.contains("ETA --:--"), "\(screen)")
    #expect(screen.contains("sent nothing for 1 s"), "\(screen)")
    #expect(exit.code == 69, "\(screen)")
  }
}
