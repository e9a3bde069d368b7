import Foundation
import Testing

@testable import TestSupport

/// `list` at its edges: a page past the last says the range, wherever pages come from; a
/// failed request for a huge query does not print the query back whole.
@Suite(.serialized)
struct ListEdgeTests {
  @Test(arguments: [
    ["--source", "embedded"], ["--offline", "--server", "http://127.0.0.1:1"],
  ])
  func aPagePastTheLastSaysTheRangeOffline(_ source: [String]) async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let run = try await app.run(["list", "--page", "3000"] + source)
    #expect(run.status == 64, "\(run)")
    #expect(run.errLines == ["error: page 3,000 is out of range (1–2,397)"], "\(run)")
    #expect(run.out.isEmpty, "\(run)")
    // A page that exists is still listed.
    let last = try await app.run(["list", "--page", "2397"] + source)
    #expect(last.status == 0, "\(last)")
    #expect(!last.outLines.isEmpty, "\(last)")
  }

  @Test func aPagePastTheLastSaysTheRangeOnline() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let pages = (try await server.engineIDs("/books/?languages=fr").count + 31) / 32
    let run = try await app.run(
      ["list", "--language", "fr", "--page", "50", "--server", server.url.absoluteString])
    await server.stop()
    #expect(run.status == 64, "\(run)")
    let range = pages == 1 ? "there is only page 1" : "1–\(pages)"
    #expect(run.errLines == ["error: page 50 is out of range (\(range))"], "\(run)")
  }

  @Test func aHugeQueryIsNotPrintedBackWhole() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let query = String(repeating: "x", count: 100_000)
    let run = try await app.run(
      ["list", "--search", query, "--server", server.url.absoluteString])
    await server.stop()
    #expect(run.status != 0, "\(run.status)")
    #expect(run.out.isEmpty)
    #expect(run.errLines.count == 1, "\(run.errLines.count) lines")
    let line = try #require(run.errLines.first)
    #expect(line.hasPrefix("error: "), "\(line.prefix(300))")
    #expect(line.count < 500, "\(line.count) characters: \(line.prefix(300))")
    #expect(line.contains("search=xxxx"), "\(line.prefix(300))")
    #expect(line.contains("…"), "\(line.prefix(300))")
  }
}
