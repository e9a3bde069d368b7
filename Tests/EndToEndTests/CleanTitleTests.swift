import Foundation
import Testing

@testable import TestSupport

/// A title with a MARC subfield marker (book 72330, `The mighty deep : $b and what we know of
/// it`) through the binary: listings and the saved file's name read as punctuation, `--json`
/// is the server's text byte for byte.
@Suite(.serialized)
struct CleanTitleTests {
  static let raw = "The mighty deep : $b and what we know of it"
  static let clean = "The mighty deep: and what we know of it"

  @Test func listingsAndFileNamesAreCleanAndJSONIsRaw() async throws {
    let server = try await TestServer.start()
    try BookFiles.serveText(id: 72330, on: server.server)
    let app = try Gutenberg().mirrored(to: server.url)
    defer { app.cleanUp() }
    let url = server.url.absoluteString
    try #require(try server.engine.title(of: 72330) == Self.raw)

    let tsv = try await app.run(["list", "--ids", "72330", "--server", url])
    let json = try await app.run(["list", "--ids", "72330", "--json", "--server", url])
    let show = try await app.run(["show", "72330", "--json", "--server", url])
    let get = try await app.run(["get", "72330", "--format", "txt", "--server", url])
    await server.stop()

    #expect(tsv.status == 0, "\(tsv)")
    #expect(tsv.outLines.first?.split(separator: "\t")[1] == Substring(Self.clean), "\(tsv)")
    // `"$b"` inside JSON needs no escaping: the server's bytes are printed as they came.
    #expect(json.out.contains("\"title\":\"\(Self.raw)\""), "\(json)")
    #expect(show.out.contains("\"title\":\"\(Self.raw)\""), "\(show)")
    #expect(get.status == 0, "\(get)")
    let name = "72330-the-mighty-deep-and-what-we-know-of-it.txt"
    #expect(get.outLines == [app.root.appendingPathComponent(name).path], "\(get)")
    let library = try await app.run(["library"])
    #expect(library.out.hasSuffix("\t\(Self.clean)\n"), "\(library)")
  }
}
