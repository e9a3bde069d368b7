import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// Ctrl-C at the browser's idle prompt when its lines come from a pipe (a script, with no
/// one to come back to the prompt) ends it by returning through the main loop: exit 130, and
/// the stores closed on the way out (SQLite removed its WAL), not `exit()` from the signal's
/// queue with the databases still open. On a terminal Ctrl-C only drops the typed line
/// (`TypedTextTests`).
@Suite(.serialized, .ownThread)
struct QuitTests {
  /// How many times the browser said it cancelled work in flight.
  static func cancels(_ browser: ChildProcess) -> Int {
    String(decoding: browser.stderr, as: UTF8.self).occurrences(of: "cancelled")
  }

  @Test func ctrlCAtAPipedPromptQuitsWith130AndClosesTheStores() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let browser = try app.start(["--source", "embedded"])
    defer { browser.kill() }
    #expect(await browser.waitForOutput { $0.contains("all books · page 1 of") })
    // A favourite written in this process, so its WAL holds something to checkpoint.
    await browser.send("f 1")
    #expect(await browser.waitForOutput { $0.contains("Added to favourites") })

    // The press must come at the idle prompt. `f 1` prints its line before its work is
    // marked finished, and on a loaded machine a press in between cancels that finished work
    // instead ("cancelled" on stderr, the browser goes on): press again then.
    var cancels = 0
    for _ in 0..<10 where !browser.hasExited {
      browser.kill(SIGINT)
      try await Awaiting.condition("the browser to quit, or to cancel the work in flight") {
        browser.hasExited || Self.cancels(browser) > cancels
      }
      cancels = Self.cancels(browser)
    }
    let exit = await browser.wait(timeout: .seconds(60))

    #expect(exit.code == 130, "\(browser.stdoutText.suffix(500))")
    let files = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(!files.contains("favorites.sqlite-wal"), "the store was not closed: \(files)")
    #expect(try await app.favoriteIDs().count == 1)
  }
}
