import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// A favourite added by another `gutenberg` process reaches an open browser without a key:
/// the store announces other processes' commits, and the session draws the screen again.
@Suite(.serialized, .ownThread)
struct CrossProcessFavoriteTests {
  /// The ids of the first page of the embedded catalogue, in order.
  func firstPageIDs(_ app: Gutenberg) async throws -> [Int] {
    let run = try await app.run(["list", "--source", "embedded"])
    try #require(run.status == 0, "\(run)")
    return run.outLines.compactMap { Int($0.split(separator: "\t").first ?? "") }
  }

  /// The row of book `title` in the last browse screen drawn, nil when it is not there.
  static func lastRow(of title: String, in output: String) -> Substring? {
    guard let screen = output.components(separatedBy: "all books · page 1 of").last else {
      return nil
    }
    return screen.split(separator: "\n").first { $0.contains(title) }
  }

  @Test func aFavouriteAddedInAnotherShellPutsTheStarOnTheOpenBrowser() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let ids = try await firstPageIDs(app)
    try #require(ids.count >= 3)
    let titles = try await app.run(["show", String(ids[2]), "--source", "embedded", "--json"])
    let book = try JSONSerialization.jsonObject(with: titles.stdout) as? [String: Any]
    let title = String(try #require(book?["title"] as? String).prefix(18))

    let browser = try app.start(["--source", "embedded"])
    defer { browser.kill() }
    #expect(await browser.waitForOutput { $0.contains("all books · page 1 of") })
    let before = try #require(Self.lastRow(of: title, in: browser.stdoutText))
    #expect(before.dropFirst(4).first == " ", "row 3 is already a favourite: \(before)")

    let add = try await app.run(["favorites", "add", String(ids[2]), "--source", "embedded"])
    #expect(add.status == 0, "\(add)")

    // No line is sent to the browser: the screen comes again by itself, with the star.
    let starred = await browser.waitForOutput(timeout: .seconds(60)) { output in
      output.components(separatedBy: "all books · page 1 of").count == 3
        && Self.lastRow(of: title, in: output)?.dropFirst(4).first == "*"
    }
    #expect(starred, "no star after another process added the favourite:\n\(browser.stdoutText)")

    // And the other way: removed elsewhere, the star goes.
    let remove = try await app.run(["favorites", "remove", String(ids[2])])
    #expect(remove.status == 0, "\(remove)")
    let unstarred = await browser.waitForOutput(timeout: .seconds(60)) { output in
      output.components(separatedBy: "all books · page 1 of").count == 4
        && Self.lastRow(of: title, in: output)?.dropFirst(4).first == " "
    }
    #expect(unstarred, "the star stayed after the removal:\n\(browser.stdoutText)")

    await browser.send("q")
    let exit = await browser.wait(timeout: .seconds(60))
    #expect(exit.code == 0)
  }

  @Test func theDetailsScreenShowsAFavouriteAddedElsewhere() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let ids = try await firstPageIDs(app)
    try #require(!ids.isEmpty)

    let browser = try app.start(["--source", "embedded"])
    defer { browser.kill() }
    await browser.send("1")
    #expect(await browser.waitForOutput { $0.contains("Favourite:    no") })

    let add = try await app.run(["favorites", "add", String(ids[0]), "--source", "embedded"])
    #expect(add.status == 0, "\(add)")
    #expect(
      await browser.waitForOutput(timeout: .seconds(60)) { $0.contains("Favourite:    yes") },
      "\(browser.stdoutText)")
    await browser.send("q")
    #expect(await browser.wait(timeout: .seconds(60)).code == 0)
  }
}
