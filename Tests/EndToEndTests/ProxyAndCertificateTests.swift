import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import TestSupport

/// The binary's https and proxy settings, read from the environment as the curl tool reads
/// them: a private CA (`SSL_CERT_FILE`, `CURL_CA_BUNDLE`, `SSL_CERT_DIR`), the proxy variables
/// and `no_proxy`. Real TLS (``TLSFront``) and a real proxy (``LoopbackProxy``) on loopback.
@Suite(.serialized, .ownThread)
struct ProxyAndCertificateTests {
  /// The path the EPUB is saved under in the data directory's root.
  static func epub(_ setup: DownloadTests.Setup) -> URL {
    setup.app.root.appendingPathComponent(DownloadTests.epubName)
  }

  /// `get 84` with the book's metadata from the embedded catalogue, so only the file transfer
  /// goes over the network.
  static func get(_ setup: DownloadTests.Setup) async throws -> Gutenberg.Run {
    try await setup.app.run(["get", "84", "--source", "embedded"], timeout: .seconds(60))
  }

  @Test(arguments: ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"])
  func anHTTPSDownloadGoesThroughTheProxy(variable: String) async throws {
    try await DownloadTests.with(.https) { setup in
      let proxy = try LoopbackProxy()
      setup.app.extraEnvironment[variable] = proxy.url.absoluteString
      let run = try await Self.get(setup)
      await proxy.stop()
      #expect(run.status == 0, "\(run)")
      let connect = "CONNECT 127.0.0.1:\(setup.front.url.port ?? 0) HTTP/1.1"
      #expect(!proxy.requestLines.isEmpty, "\(run)")
      #expect(proxy.requestLines.allSatisfy { $0 == connect }, "\(proxy.requestLines)")
      #expect(setup.server.server.requests.contains("/ebooks/84.epub3.images"))
      #expect(
        try Data(contentsOf: Self.epub(setup))
          == ServedFile.generatedBytes(offset: 0, count: 300_000))
    }
  }

  @Test func aPlainHTTPDownloadGoesThroughTheHTTPProxy() async throws {
    try await DownloadTests.with(.http) { setup in
      let proxy = try LoopbackProxy()
      setup.app.extraEnvironment["http_proxy"] = proxy.url.absoluteString
      let run = try await Self.get(setup)
      await proxy.stop()
      #expect(run.status == 0, "\(run)")
      // Absolute-form requests, the redirect's target included.
      #expect(
        proxy.requestLines == [
          "GET \(setup.url)/ebooks/84.epub3.images HTTP/1.1",
          "GET \(setup.url)/cache/epub/84/pg84-images-3.epub HTTP/1.1",
        ], "\(run)")
      #expect(try Data(contentsOf: Self.epub(setup)).count == 300_000)
    }
  }

  @Test(arguments: ["no_proxy", "NO_PROXY"])
  func noProxyBypassesTheProxy(variable: String) async throws {
    try await DownloadTests.with(.https) { setup in
      let proxy = try LoopbackProxy()
      setup.app.extraEnvironment["https_proxy"] = proxy.url.absoluteString
      setup.app.extraEnvironment[variable] = "127.0.0.1"
      let run = try await Self.get(setup)
      await proxy.stop()
      #expect(run.status == 0, "\(run)")
      #expect(proxy.requestLines.isEmpty, "the proxy was used: \(proxy.requestLines)")
      #expect(try Data(contentsOf: Self.epub(setup)).count == 300_000)
    }
  }

  @Test func aServerCertificateFromAnotherCAIsOneLineAndExit69() async throws {
    try await DownloadTests.with(.https) { setup in
      let other = try await TestCertificateAuthority.make(name: "unrelated test CA")
      defer { other.remove() }
      setup.app.extraEnvironment["SSL_CERT_FILE"] = other.certificatePath
      let run = try await Self.get(setup)
      #expect(run.status == 69, "\(run)")
      #expect(run.errLines.count == 1, "\(run)")
      #expect(run.err.hasPrefix("error: "), "\(run)")
      #expect(run.err.lowercased().contains("certificate"), "\(run)")
      #expect(setup.server.server.requestCount == 0, "nothing was sent before the handshake")
      let left = try FileManager.default.contentsOfDirectory(atPath: setup.app.root.path)
      #expect(!left.contains { $0.hasPrefix("84-") }, "\(left)")
    }
  }

  @Test(arguments: ["SSL_CERT_FILE", "CURL_CA_BUNDLE", "SSL_CERT_DIR"])
  func listOverHTTPSTrustsTheTestCA(variable: String) async throws {
    try await DownloadTests.with(.https) { setup in
      let authority = try #require(setup.front.authority)
      setup.app.extraEnvironment["SSL_CERT_FILE"] = nil
      setup.app.extraEnvironment[variable] =
        variable == "SSL_CERT_DIR" ? authority.certificateDirectory : authority.certificatePath
      let run = try await setup.app.run(["--server", setup.url, "list"])
      #expect(run.status == 0, "\(run)")
      #expect(run.err.isEmpty, "no fallback to the embedded catalogue: \(run)")
      let ids = run.outLines.compactMap { Int($0.split(separator: "\t").first ?? "") }
      #expect(ids == (try await setup.server.engineIDs("/books/")).ids, "\(run)")
      #expect(setup.server.server.requests == ["/books/"])
    }
  }
}
