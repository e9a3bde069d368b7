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

  /// Project Gutenberg's feed on a slow link: the line counts its bytes (of the announced
  /// length) as they arrive, from the sync's own events, and is erased at the end.
  @Test func aThrottledFeedsBytesMoveOnTheProgressLine() async throws {
    let servers = try await FeedFaultTests.servers()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let books = try FixtureFiles.data("books.jsonl").split(separator: 0x0A).map { Data($0) }
    let feed = app.root.appendingPathComponent("rdf-files.tar.bz2")
    try FeedGenerator.writeFeed(books: books, to: feed.path)
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: feed.path)[.size] as? Int)
    servers.feed.serve(ServedFile(content: .file(feed)), at: "/rdf-files.tar.bz2")
    // About ten seconds for the whole feed.
    servers.feed.faults = FaultPlan(bodyBytesPerSecond: max(2_048, size / 10))
    let window = try await TerminalWindow(
      app,
      [
        "sync", "--feed", "--server", servers.apiURL, "--feed-url", servers.feedURL,
        "--timeout", "600",
      ], columns: 100, rows: 24)
    defer { window.closeNow() }

    /// The progress line's received figure (`12.0 KiB`), when one is on screen.
    func received(_ screen: [String]) -> String? {
      guard let line = screen.first(where: { $0.hasPrefix("sync: feed ") }) else { return nil }
      return line.dropFirst("sync: feed ".count).components(separatedBy: " of ").first
    }
    let first = try await window.waitForScreen { received($0) != nil }
    #expect(first.held, "no progress line while the feed arrives:\n\(first.screen)")
    let before = received(try await window.screen())
    let moved = try await window.waitForScreen { screen in
      guard let now = received(screen) else { return false }
      return now != before
    }
    #expect(moved.held, "the feed's bytes did not move from \(before ?? "-"):\n\(moved.screen)")
    // The feed's length, as its server announced it.
    let kib = Double(size) / 1024
    let total = "\(Int(kib)).\(Int((kib * 10).rounded()) % 10) KiB"
    #expect(
      moved.screen.contains(" of \(total) · ") || moved.screen.contains(" of \(size) B · "),
      "\(total): \(moved.screen)")
    #expect(try await window.waitForExit(timeout: .seconds(300)), "the sync did not end")
    let screen = try await window.screen()
    #expect(!screen.contains { $0.contains("sync: ") }, "the progress line stayed:\n\(screen)")
    #expect(screen.contains("[exited 0]"), "\(screen.joined(separator: "\n"))")
    await window.close()
    await servers.stop()
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
