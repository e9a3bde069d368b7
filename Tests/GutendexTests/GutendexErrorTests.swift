import Foundation
import Testing

@testable import Gutendex

/// Every error case says what happened and where, and classifies itself for retries and
/// fallbacks.
@Suite struct GutendexErrorTests {
  static let url = URL(string: "http://127.0.0.1:8080/books/?page=2")!

  @Test(arguments: [
    (
      GutendexError.unreachable(url: url, reason: "refused"),
      "cannot reach 127.0.0.1:8080: refused", true, false
    ),
    (
      .connectionLost(url: url, reason: "reset"), "connection to 127.0.0.1:8080 lost: reset", true,
      true
    ),
    (
      .timedOut(url: url, after: .milliseconds(1500)),
      "127.0.0.1:8080 did not answer within 1.5 s (\(url))", true, false
    ),
    (.cancelled(url: url), "request cancelled", false, false),
    (
      .http(status: 404, detail: "Invalid page.", url: url),
      "server says: Invalid page. (HTTP 404, \(url))", false, false
    ),
    (.http(status: 400, detail: "", url: url), "HTTP 400 from \(url)", false, false),
    (
      .rateLimited(retryAfter: .seconds(30), url: url),
      "rate limited by 127.0.0.1:8080, retry in 30 s", true, true
    ),
    (
      .serverError(status: 502, url: url),
      "server error (HTTP 502) from 127.0.0.1:8080; try again later", true, true
    ),
    (
      .badData(url: url, path: "results[3].authors[0].name", reason: "expected String"),
      "bad data from server at results[3].authors[0].name: expected String (\(url))", false, false
    ),
    (
      .bodyTooLarge(url: url, limit: 2 * 1_048_576),
      "response from 127.0.0.1:8080 is larger than 2 MiB; refused", false, false
    ),
    (
      .redirectRefused(from: url, to: "https://evil.example/"),
      "refused redirect from 127.0.0.1:8080 to another host: https://evil.example/", false, false
    ),
  ])
  func descriptionAndClassification(
    error: GutendexError, description: String, unavailable: Bool, transient: Bool
  ) {
    #expect(error.description == description)
    #expect(error.errorDescription == description)
    #expect(error.localizedDescription == description)
    #expect(error.isUnavailable == unavailable)
    #expect(error.isTransient == transient)
    #expect(error.url == Self.url)
  }

  @Test func durationsPrintReadably() {
    #expect(GutendexError.seconds(.seconds(15)) == "15 s")
    #expect(GutendexError.seconds(.milliseconds(2500)) == "2.5 s")
    #expect(GutendexError.seconds(.milliseconds(50)) == "50 ms")
  }

  /// A URL of a 100 KB search is cut in the error line, with `…`, not echoed whole.
  @Test func longURLsAreCutInTheLine() throws {
    let long = try #require(
      URL(string: "http://127.0.0.1:8080/books/?search=" + String(repeating: "x", count: 100_000)))
    for error in [
      GutendexError.http(status: 431, detail: nil, url: long),
      .http(status: 404, detail: String(repeating: "y", count: 5000), url: long),
      .timedOut(url: long, after: .seconds(15)),
      .badData(url: long, path: "", reason: "expected an object"),
    ] {
      let line = error.description
      #expect(line.count < 2 * GutendexError.echoLimit + 80, "\(line.count)")
      #expect(line.contains("http://127.0.0.1:8080/books/?search=xxxx"), "\(line)")
      #expect(line.contains("…"), "\(line)")
    }
    #expect(
      GutendexError.http(status: 400, detail: nil, url: Self.url).description
        == "HTTP 400 from \(Self.url)")
  }
}
