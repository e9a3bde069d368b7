import Foundation
import Testing

@testable import Gutendex

/// A transport's own errors become one short, stable reason: the same words on every run and
/// every machine (libcurl's text carries timings such as "after 0 ms").
@Suite struct TransportErrorTests {
  static let url = URL(string: "http://127.0.0.1:1/books/")!

  @Test(arguments: [
    (URLError.Code.cannotConnectToHost, "cannot reach 127.0.0.1:1: could not connect"),
    (.cannotFindHost, "cannot reach 127.0.0.1:1: host not found"),
    (.dnsLookupFailed, "cannot reach 127.0.0.1:1: host not found"),
    (.notConnectedToInternet, "cannot reach 127.0.0.1:1: no network connection"),
    (.secureConnectionFailed, "cannot reach 127.0.0.1:1: secure connection failed"),
  ])
  func unreachableReasonsAreShortAndStable(code: URLError.Code, line: String) {
    let error = URLError(code, userInfo: [NSLocalizedDescriptionKey: "after 3 ms: noise"])
    let classified = GutendexClient.classify(error, url: Self.url)
    #expect(classified.description == line)
    #expect(classified.isUnavailable)
  }

  @Test func aRealRefusedConnectionSaysSo() async throws {
    // Nothing listens on port 1 of the loopback interface.
    let server = URL(string: "http://127.0.0.1:1")!
    let client = GutendexClient(server: server, transport: CurlTransport(), retry: .none)
    let error = await #expect(throws: GutendexError.self) { _ = try await client.page(BookQuery()) }
    #expect(error?.description == "cannot reach 127.0.0.1:1: could not connect")
    #expect(error?.isRefusal == true)
  }

  /// A refusal is known by its kind (trying again costs nothing, however long a loaded machine
  /// took to say so); a lookup, a timeout or a lost connection may have cost a wait.
  @Test func onlyARefusedConnectionIsARefusal() {
    let refusals: [URLError.Code] = [.cannotConnectToHost, .notConnectedToInternet]
    for code in refusals {
      #expect(GutendexClient.classify(URLError(code), url: Self.url).isRefusal, "\(code)")
    }
    for code: URLError.Code in [.cannotFindHost, .dnsLookupFailed, .secureConnectionFailed] {
      #expect(!GutendexClient.classify(URLError(code), url: Self.url).isRefusal, "\(code)")
    }
    let others: [GutendexError] = [
      .timedOut(url: Self.url, after: .seconds(15)), .connectionLost(url: Self.url, reason: "x"),
      .serverError(status: 503, url: Self.url), .unreachable(url: Self.url, reason: "refused"),
    ]
    for error in others { #expect(!error.isRefusal, "\(error)") }
  }
}
