import Catalog
import Foundation
import Gutendex
import Testing

@testable import Terminal

/// A download that failed because Project Gutenberg's server could not be used names
/// `--mirror`; one that used a mirror, or failed for another reason, does not.
@Suite struct MirrorHintTests {
  static let url = URL(string: "https://www.gutenberg.org/ebooks/84.epub3.images")!

  @Test func onlyWhenTheServerCouldNotBeUsedAndNoMirrorWas() throws {
    let unreachable = GutendexError.unreachable(url: Self.url, reason: "could not connect")
    let mirror = try #require(DownloadMirror("https://mirror.example/pg"))
    #expect(
      BookDownload.mirrorHint(.server(unreachable), mirror: nil)
        == " (--mirror URL fetches the files from a Project Gutenberg mirror instead)")
    #expect(
      !BookDownload.mirrorHint(
        .failedAfterRetries(.serverError(status: 503, url: Self.url), kept: 0, resumable: false),
        mirror: nil
      ).isEmpty)
    #expect(BookDownload.mirrorHint(.server(unreachable), mirror: mirror).isEmpty)
    #expect(
      BookDownload.mirrorHint(
        .server(.http(status: 404, detail: nil, url: Self.url)), mirror: nil
      ).isEmpty)
    #expect(BookDownload.mirrorHint(.exists(path: "/tmp/x"), mirror: nil).isEmpty)
  }
}
