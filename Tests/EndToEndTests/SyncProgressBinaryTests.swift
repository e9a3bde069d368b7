import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// `sync` on a terminal shows its progress (pages, books, rate) while it waits for the server,
/// and erases it at the end; piped, it prints only its one line.
@Suite(.serialized, .ownThread)
struct SyncProgressBinaryTests {
  @Test func aTerminalSeesPagesAndBooksThenTheLineIsErased() async throws {
    // Page 2 is held: the sync waits there with one page (32 books) received.
    let signal = RequestSignal(try #require(SyncBinaryTests.world.engine), holdFrom: 2)
    let (server, url) = try await SyncBinaryTests.start(signal)
    let app = try Gutenberg()
    defer { app.cleanUp() }
    // --timeout 600: the held page must last until the test releases it. With the default
    // deadline a busy run's screen polls could miss the progress line before the sync gave up
    // on page 2 and erased it.
    let window = try await TerminalWindow(
      app, ["sync", "--server", url.absoluteString, "--timeout", "600"], columns: 100, rows: 24)
    defer { window.closeNow() }
    try await signal.waitFor(2)
    let shown = try await window.waitForScreen {
      $0.contains { $0.hasPrefix("sync: 1 page · 32 books · ") && $0.hasSuffix("pages/s") }
    }
    #expect(shown.held, "no progress line while the sync waits:\n\(shown.screen)")
    signal.releaseHeld()
    #expect(try await window.waitForExit(), "the sync did not end")
    let screen = try await window.screen()
    #expect(
      screen.contains { $0.hasPrefix("100 new books, ") }, "\(screen.joined(separator: "\n"))")
    #expect(!screen.contains { $0.contains("sync: ") }, "the progress line stayed:\n\(screen)")
    await window.close()
    await server.stop()
  }

  @Test func pipedThereIsNoProgressLine() async throws {
    let (server, url) = try await SyncBinaryTests.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let run = try await app.run(["sync", "--server", url.absoluteString], timeout: .seconds(120))
    #expect(run.status == 0, "\(run)")
    // No progress line (nor a carriage return or escape of one): standard error holds only
    // the line that says what arrived (issue 28).
    #expect(run.errLines == ["100 new books: gutenberg new"], "\(run)")
    #expect(!run.err.contains("\r") && !run.err.contains("\u{1B}"), "\(run)")
    #expect(run.outLines.count == 1, "\(run)")
    await server.stop()
  }
}
