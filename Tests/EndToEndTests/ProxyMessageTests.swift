import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// What goes wrong at the proxy is said of the proxy: one that cannot be reached, and one that
/// asks for a login (407), to a plain request as to a CONNECT.
@Suite(.serialized, .ownThread)
struct ProxyMessageTests {
  static let login =
    "the proxy requires authentication (HTTP 407 Proxy Authentication Required); give its "
    + "user and password in the proxy URL (http://user:password@host:port)"

  static func get(_ setup: DownloadTests.Setup) async throws -> Gutenberg.Run {
    try await setup.app.run(["get", "84", "--source", "embedded"], timeout: .seconds(60))
  }

  @Test(arguments: [Scheme.http, .https])
  func aProxyThatCannotBeReachedIsNamed(scheme: Scheme) async throws {
    try await DownloadTests.with(scheme) { setup in
      // Nothing listens on port 9 (the harness's dead mirror, too).
      setup.app.extraEnvironment[scheme == .https ? "https_proxy" : "http_proxy"] =
        "http://127.0.0.1:9"
      let run = try await Self.get(setup)
      #expect(run.status == 69, "\(run)")
      #expect(run.errLines.count == 1, "\(run)")
      #expect(
        run.err.contains(": could not connect to the proxy 127.0.0.1:9 (set by https_proxy"),
        "\(run)")
    }
  }

  @Test(arguments: [Scheme.http, .https])
  func aProxyAskingForALoginSaysSo(scheme: Scheme) async throws {
    try await DownloadTests.with(scheme) { setup in
      let proxy = try LoopbackProxy(demandsLogin: true)
      setup.app.extraEnvironment[scheme == .https ? "https_proxy" : "http_proxy"] =
        proxy.url.absoluteString
      let run = try await Self.get(setup)
      await proxy.stop()
      #expect(!proxy.requestLines.isEmpty, "the proxy was not asked: \(run)")
      #expect(run.status == 69, "\(run)")
      #expect(run.errLines.count == 1, "\(run)")
      #expect(run.err.contains(Self.login), "\(run)")
    }
  }
}
