import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Without `--format`, a file the mirror does not have (404) hands over to the next edition the
/// book has, with one note, in `get` and in the browser's `d` (issue 27).
@Suite(.serialized, .ownThread)
struct FormatFallbackTests {
  @Test func aMissingEpubHandsOverToThePlainText() async throws {
    let server = try await TestServer.start()
    // The mirror has only the plain text: its EPUB address answers 404.
    let text = try BookFiles.sampleText()
    try BookFiles.serveText(id: 84, text: text, on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let serverOption = ["--server", server.url.absoluteString]
    let directory = app.root.appendingPathComponent("books")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

    let got = try await app.run(["get", "84", "-o", directory.path] + serverOption)
    #expect(got.status == 0, "\(got)")
    let notes = got.errLines.filter { $0.hasPrefix("note: ") }
    #expect(
      notes == ["note: the mirror has no epub file of book 84 (HTTP 404); trying txt"], "\(got)")
    let path = try #require(got.outLines.last, "\(got)")
    #expect(path.hasSuffix(".txt"), "\(got)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)

    // The browser's `d` on the search's first row (Frankenstein) does the same.
    let browsed = try await app.run(serverOption, input: "/ frankenstein\nd 1\nq\n")
    #expect(browsed.status == 0, "\(browsed)")
    #expect(browsed.err.contains("trying txt"), "\(browsed)")
    let downloaded = try #require(
      browsed.errLines.first { $0.hasPrefix("Downloaded: ") }, "\(browsed)")
    #expect(downloaded.hasSuffix(".txt"), "\(browsed)")
    let saved = String(downloaded.dropFirst("Downloaded: ".count))
    #expect(try Data(contentsOf: URL(fileURLWithPath: saved)) == text)

    // Asked for by name, a missing edition is an error, not another edition.
    let asked = try await app.run(
      ["get", "84", "--format", "epub", "-o", directory.path, "--force"] + serverOption)
    #expect(asked.status != 0, "\(asked)")
    #expect(!asked.err.contains("trying"), "\(asked)")
    await server.stop()
  }
}
