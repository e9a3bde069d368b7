import Foundation
import Testing

@testable import TestSupport

/// `--mirror` and `--verbose` for book files: every request for a file is printed with
/// `--verbose`, as the API's are; an offline `get` says what `--mirror` would and would not do.
@Suite(.serialized)
struct MirrorTests {
  @Test func verbosePrintsEveryRequestForTheFile() async throws {
    let server = try await TestServer.start()
    let epubPath = try BookFiles.serve84(on: server.server, epubSize: 1_000)
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let url = server.url.absoluteString
    let mirror = url.hasSuffix("/") ? String(url.dropLast()) : url

    let run = try await app.run(["--verbose", "get", "84", "--server", url, "--mirror", mirror])
    await server.stop()

    #expect(run.status == 0, "\(run)")
    let requests = run.errLines.filter { $0.hasPrefix("request: GET ") }
    #expect(
      requests.contains {
        $0.hasPrefix("request: GET \(mirror)/ebooks/84.epub3.images → HTTP 302")
      },
      "\(run)")
    #expect(
      requests.contains { $0.hasPrefix("request: GET \(mirror)\(epubPath) → HTTP 200") }, "\(run)")
    #expect(requests.contains { $0.contains("/books/84") }, "the API request too: \(run)")
  }

  @Test func anOfflineGetSaysWhatAMirrorWouldDo() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let run = try await app.run(["--offline", "get", "84"])
    #expect(run.status == 69, "\(run)")
    #expect(run.errLines.count == 1, "\(run)")
    let line = try #require(run.errLines.first)
    #expect(line.hasPrefix("error: offline: downloading book 84 needs the network"), "\(line)")
    #expect(line.hasSuffix("; a --mirror is reached over the network too"), "\(line)")
  }
}
