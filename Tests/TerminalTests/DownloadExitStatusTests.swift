import Catalog
import Foundation
import Gutendex
import Testing

@testable import Terminal

/// One exit code per kind of failure, whether a page or a download met it.
@Suite("Exit statuses of downloads")
struct DownloadExitStatusTests {
  static let url = URL(string: "http://127.0.0.1:1/ebooks/84.epub3.images")!

  @Test func aRefusedRedirectIsUnavailableFromTheAPIAndFromAFile() {
    let api = GutendexError.redirectRefused(from: Self.url, to: "http://example.invalid/")
    let file = DownloadError.redirectRefused(
      from: Self.url, to: "http://example.invalid/", reason: "only https is followed")
    #expect(ExitStatus(CatalogError.server(api)) == .unavailable)
    #expect(ExitStatus(.download(file)) == .unavailable)
    #expect(ExitStatus(.download(.tooManyRedirects(url: Self.url))) == .unavailable)
    #expect(ExitStatus(.download(.server(api))) == .unavailable)
  }

  @Test func eachDownloadFailureHasTheCodeOfItsKind() {
    let lost = GutendexError.connectionLost(url: Self.url, reason: "reset")
    let refused = GutendexError.unreachable(url: Self.url, reason: "Connection refused")
    let missing = GutendexError.http(status: 404, detail: nil, url: Self.url)
    let cases: [(DownloadError, Terminal.ExitStatus)] = [
      (.interrupted(kept: 10, resumable: true), .interrupted),
      (.failedAfterRetries(lost, kept: 10, resumable: true), .unavailable),
      // A refused reconnect that kept the part is still the network: the same code as without.
      (.failedAfterRetries(refused, kept: 10, resumable: true), .unavailable),
      (.server(refused), .unavailable),
      (.failedAfterRetries(missing, kept: 10, resumable: true), .failure),
      (.server(missing), .failure),
      (.stalled(url: Self.url, after: .seconds(1), kept: 0, resumable: false), .unavailable),
      (.lengthMismatch(expected: 10, received: 5), .dataError),
      (.disk(path: "/x.part", reason: "a symbolic link", resumable: false), .failure),
      (.exists(path: "/x"), .failure),
      (.server(.badData(url: Self.url, path: "", reason: "x")), .dataError),
    ]
    for (error, status) in cases {
      #expect(ExitStatus(.download(error)) == status, "\(error)")
    }
    #expect(ExitStatus(.needsNetwork("downloading book 84")) == .unavailable)
  }
}
