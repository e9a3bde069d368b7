import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// Bulk downloads go to Project Gutenberg's mirrors, as PG's robot rules ask: a `get` of
/// several books with no mirror named takes their files from aleph.pglaf.org, never from
/// www.gutenberg.org, and a mirror of PG's tree is asked for each file at its place in the
/// tree. A loopback proxy stands between the binary and those public hosts: it records every
/// request line and answers them on this machine (or refuses them), so nothing leaves it.
@Suite(.serialized, .ownThread)
struct BulkDownloadTests {
  /// Several books, no mirror named: every request is for PG's mirror, none for www.
  @Test func aBulkGetGoesToPGsMirrorNotToWWW() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let proxy = try LoopbackProxy()
    app.extraEnvironment["GUTENBERG_MIRROR"] = ""
    app.extraEnvironment["https_proxy"] = proxy.url.absoluteString
    app.extraEnvironment["http_proxy"] = proxy.url.absoluteString
    let run = try await app.run(
      ["get", "84", "1342", "--format", "txt", "--source", "embedded", "-o", app.root.path + "/"])
    await proxy.stop()
    #expect(run.status == 69, "\(run)")
    #expect(run.err.contains("aleph.pglaf.org"), "\(run)")
    #expect(run.err.contains("note: 2 books: their files come from"), "\(run)")
    #expect(!proxy.requestLines.isEmpty, "\(run)")
    #expect(
      proxy.requestLines.allSatisfy { $0 == "CONNECT aleph.pglaf.org:443 HTTP/1.1" },
      "\(proxy.requestLines)")
    #expect(!proxy.requestLines.contains { $0.contains("gutenberg.org") })
    #expect(run.errLines.allSatisfy { !$0.contains("\u{1B}") })
  }

  /// One book may come from www (the format URL, as before): no mirror note.
  @Test func aSingleGetMayUseWWW() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let proxy = try LoopbackProxy()
    app.extraEnvironment["GUTENBERG_MIRROR"] = ""
    app.extraEnvironment["https_proxy"] = proxy.url.absoluteString
    let run = try await app.run(
      ["get", "84", "--format", "txt", "--source", "embedded", "-o", app.root.path + "/"])
    await proxy.stop()
    #expect(run.status == 69, "\(run)")
    #expect(!run.err.contains("note: "), "\(run)")
    #expect(
      proxy.requestLines == ["CONNECT www.gutenberg.org:443 HTTP/1.1"], "\(proxy.requestLines)")
  }

  /// A mirror on one of PG's own mirror hosts is read in PG's tree: each file is asked for at
  /// `/cache/epub/N/pgN…`, and both books arrive whole.
  @Test func aMirrorOfPGsTreeIsAskedAtTheTreesPaths() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    let server = try await TestServer.start()
    try BookFiles.serve84(on: server.server)
    try BookFiles.serveText(id: 1342, on: server.server)
    let port = try #require(server.url.port.flatMap { UInt16(exactly: $0) })
    let proxy = try LoopbackProxy(routes: ["aleph.pglaf.org": port])
    app.extraEnvironment["GUTENBERG_MIRROR"] = ""
    app.extraEnvironment["http_proxy"] = proxy.url.absoluteString
    let run = try await app.run(
      [
        "get", "84", "1342", "--format", "txt", "--source", "embedded", "--mirror",
        "http://aleph.pglaf.org", "-o", app.root.path + "/",
      ])
    await proxy.stop()
    await server.stop()
    #expect(run.status == 0, "\(run)")
    #expect(
      proxy.requestLines == [
        "GET http://aleph.pglaf.org/cache/epub/84/pg84.txt HTTP/1.1",
        "GET http://aleph.pglaf.org/cache/epub/1342/pg1342.txt HTTP/1.1",
      ], "\(proxy.requestLines)")
    let sample = try BookFiles.sampleText()
    let saved = run.outLines.map { URL(fileURLWithPath: $0) }
    #expect(saved.count == 2, "\(run)")
    for file in saved { #expect(try Data(contentsOf: file) == sample, "\(file.path)") }
  }
}
