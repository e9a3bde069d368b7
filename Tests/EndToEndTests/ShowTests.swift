import Foundation
import Testing

@testable import TestSupport

/// `gutenberg show`: every detail and every download link on standard output; where the book
/// came from when the server could not be used is a note on standard error, as for `list`.
@Suite(.serialized)
struct ShowTests {
  @Test func linksOnStandardOutputAndTheFallbackNoteOnStandardError() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    // Nothing listens on port 1: the embedded catalogue stands in.
    let offline = try await app.run(["show", "84", "--server", "http://127.0.0.1:1"])
    let list = try await app.run(["list", "--ids", "84", "--server", "http://127.0.0.1:1"])
    let json = try await app.run(["show", "84", "--json", "--server", "http://127.0.0.1:1"])

    #expect(offline.status == 0, "\(offline)")
    #expect(offline.outLines.first == "Frankenstein; Or, The Modern Prometheus", "\(offline)")
    #expect(!offline.out.contains("offline"), "\(offline)")
    #expect(!offline.out.contains("could not connect"), "\(offline)")
    #expect(offline.out.contains("Links for 84 · "), "\(offline)")
    #expect(offline.out.contains("https://www.gutenberg.org/ebooks/84.epub3.images"), "\(offline)")
    #expect(offline.out.contains("https://www.gutenberg.org/ebooks/84.txt.utf-8"), "\(offline)")
    #expect(offline.errLines.count == 1, "\(offline)")
    #expect(offline.errLines.first?.hasPrefix("note: offline — embedded catalogue") == true)
    // The same note `list` gives.
    #expect(offline.errLines == list.errLines, "\(offline)\n\(list)")
    #expect(json.errLines == offline.errLines, "\(json)")
    #expect(!json.out.contains("note:"), "\(json)")
  }
}
