import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// Ctrl-C twice at the browser's idle prompt quits by returning through the main loop: exit
/// 130, and the stores closed on the way out (SQLite removed its WAL), not `exit()` from the
/// signal's queue with the databases still open.
@Suite(.serialized, .ownThread)
struct QuitTests {
  @Test func ctrlCTwiceAtThePromptQuitsWith130AndClosesTheStores() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let browser = try app.start(["--source", "embedded"])
    defer { browser.kill() }
    #expect(await browser.waitForOutput { $0.contains("all books · page 1 of") })
    // A favourite written in this process, so its WAL holds something to checkpoint.
    await browser.send("f 1")
    #expect(await browser.waitForOutput { $0.contains("Added to favourites") })

    browser.kill(SIGINT)
    #expect(await browser.waitForOutput { $0.contains("(Ctrl-C again to quit, or type q)") })
    browser.kill(SIGINT)
    let exit = await browser.wait(timeout: .seconds(60))

    #expect(exit.code == 130, "\(browser.stdoutText.suffix(500))")
    let files = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
    #expect(!files.contains("favorites.sqlite-wal"), "the store was not closed: \(files)")
    #expect(try await app.favoriteIDs().count == 1)
  }
}
