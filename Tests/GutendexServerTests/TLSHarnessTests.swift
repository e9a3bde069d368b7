import Foundation
import GutendexServer
import TestSupport
import TestTraits
import Testing

/// The https and proxy harness itself, proved with the curl CLI (independent of the program's
/// own client): ``TLSFront`` serves the ``LoopbackServer``'s answers over real TLS with a test
/// CA's certificate, a client trusting another CA is refused, ``LoopbackProxy`` tunnels
/// `CONNECT` and forwards absolute-form `GET`, and faults pass through TLS as faults.
@Suite(.serialized, .ownThread)
struct TLSHarnessTests {
  /// One curl run: exit code, body and error text.
  struct Curl: CustomStringConvertible {
    var code: Int32?
    var body: Data
    var stderr: String

    var description: String {
      "curl exit \(code.map(String.init) ?? "by a signal"), \(body.count) bytes: \(stderr)"
    }

    /// Runs curl in an environment of exactly `environment` (none of this machine's CA or proxy
    /// variables leak in), standard output kept.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws
      -> Curl
    {
      let child = try ChildProcess(
        executable: try SystemTool.path("curl"), arguments: ["-sS"] + arguments,
        environment: ["PATH": "/usr/bin:/bin"].merging(environment) { $1 })
      child.closeInput()
      let exit = await child.wait(timeout: .seconds(60))
      return Curl(
        code: exit.code, body: child.stdout,
        stderr: String(decoding: child.stderr, as: UTF8.self))
    }
  }

  /// A fixture server, a CA, and a TLS front for the server with that CA's certificate; all
  /// stopped and removed afterwards, whether `body` passed or threw.
  static func withFront(
    _ body: (LoopbackServer, TLSFront, TestCertificateAuthority) async throws -> Void
  ) async throws {
    let authority = try await TestCertificateAuthority.make()
    defer { authority.remove() }
    try await withServer { server, url in
      let front = try await TLSFront.start(backend: url, authority: authority)
      do {
        try await body(server, front, authority)
      } catch {
        await front.stop()
        throw error
      }
      await front.stop()
    }
  }

  @Test func curlTrustingTheTestCAGetsTheServersAnswerOverTLS() async throws {
    try await Self.withFront { server, front, authority in
      #expect(front.url.absoluteString == "https://127.0.0.1:\(front.port)")
      let plain = try await Curl.run(["http://127.0.0.1:\(front.backendPort)/books/"])
      let tls = try await Curl.run(
        ["--cacert", authority.certificatePath, front.url.absoluteString + "/books/"])
      #expect(tls.code == 0, "\(tls)\n\(front.log)")
      #expect(tls.body == (try Fixtures.page1()))
      #expect(tls.body == plain.body)
      // The certificate names localhost too, and SSL_CERT_FILE works as --cacert does.
      let byName = try await Curl.run(
        ["https://localhost:\(front.port)/books/?page=10"],
        environment: ["SSL_CERT_FILE": authority.certificatePath])
      #expect(byName.code == 0, "\(byName)")
      #expect(byName.body == (try Fixtures.page10()))
      #expect(server.requests == ["/books/", "/books/", "/books/?page=10"])
    }
  }

  @Test func aClientTrustingAnotherCAIsRefusedBeforeAnyRequest() async throws {
    try await Self.withFront { server, front, _ in
      let other = try await TestCertificateAuthority.make(name: "unrelated test CA")
      defer { other.remove() }
      let refused = try await Curl.run(
        ["--cacert", other.certificatePath, front.url.absoluteString + "/books/"])
      // 60: CURLE_PEER_FAILED_VERIFICATION.
      #expect(refused.code == 60, "\(refused)")
      #expect(refused.stderr.contains("SSL certificate problem"), "\(refused)")
      #expect(refused.body.isEmpty)
      let untrusted = try await Curl.run([front.url.absoluteString + "/books/"])
      #expect(untrusted.code == 60, "the system's CAs do not know it: \(untrusted)")
      #expect(server.requestCount == 0, "no request got through")
    }
  }

  @Test func httpsThroughTheProxyIsAConnectTunnelToTheFront() async throws {
    try await Self.withFront { server, front, authority in
      let proxy = try LoopbackProxy()
      let run = try await Curl.run(
        ["--cacert", authority.certificatePath, front.url.absoluteString + "/books/"],
        environment: ["https_proxy": proxy.url.absoluteString])
      await proxy.stop()
      #expect(run.code == 0, "\(run)")
      #expect(run.body == (try Fixtures.page1()))
      #expect(proxy.requestLines == ["CONNECT 127.0.0.1:\(front.port) HTTP/1.1"])
      #expect(server.requests == ["/books/"])
    }
  }

  @Test func plainHTTPThroughTheProxyIsForwardedInOriginForm() async throws {
    try await withServer { server, url in
      let proxy = try LoopbackProxy()
      let target = url.absoluteString + "/books/?page=10"
      let run = try await Curl.run([target], environment: ["http_proxy": proxy.url.absoluteString])
      let second = try await Curl.run(
        [url.absoluteString + "/books/"], environment: ["http_proxy": proxy.url.absoluteString])
      await proxy.stop()
      #expect(run.code == 0, "\(run)")
      #expect(run.body == (try Fixtures.page10()))
      #expect(second.body == (try Fixtures.page1()))
      #expect(
        proxy.requestLines == [
          "GET \(target) HTTP/1.1", "GET \(url.absoluteString)/books/ HTTP/1.1",
        ])
      #expect(server.requests == ["/books/?page=10", "/books/"])
    }
  }

  @Test func theProxyRefusesEveryTargetOffThisMachine() async throws {
    let proxy = try LoopbackProxy()
    let plain = try await Curl.run(
      ["-w", "%{http_code}", "-x", proxy.url.absoluteString, "http://example.invalid/books/"])
    let tunnel = try await Curl.run(
      ["-x", proxy.url.absoluteString, "https://example.invalid/books/"])
    await proxy.stop()
    #expect(String(decoding: plain.body, as: UTF8.self).hasSuffix("403"), "\(plain)")
    // 56: CURLE_RECV_ERROR, curl's code for a CONNECT the proxy answered with an error.
    #expect(tunnel.code == 56, "\(tunnel)")
    #expect(tunnel.stderr.contains("403"), "\(tunnel)")
    #expect(
      proxy.refusedLines == [
        "GET http://example.invalid/books/ HTTP/1.1", "CONNECT example.invalid:443 HTTP/1.1",
      ])
  }

  /// A file of `size` generated bytes at `/file`, and curl's run for it through the front.
  static func fetchFile(
    _ server: LoopbackServer, _ front: TLSFront, _ authority: TestCertificateAuthority,
    size: Int, faults: FaultPlan, extra: [String] = []
  ) async throws -> Curl {
    server.serve(ServedFile(content: .generated(size: size)), at: "/file")
    server.faults = faults
    return try await Curl.run(
      extra + ["--cacert", authority.certificatePath, front.url.absoluteString + "/file"])
  }

  @Test func aStallBehindTheFrontStaysAStall() async throws {
    try await Self.withFront { server, front, authority in
      let run = try await Self.fetchFile(
        server, front, authority, size: 100_000, faults: FaultPlan(stallMidBody: true),
        extra: ["--max-time", "2"])
      // 28: CURLE_OPERATION_TIMEDOUT, with the half the server sent before stalling.
      #expect(run.code == 28, "\(run)")
      #expect(run.body == ServedFile.generatedBytes(offset: 0, count: 50_000), "\(run)")
    }
  }

  @Test func aCloseMidBodyEndsTheTLSStreamEarly() async throws {
    try await Self.withFront { server, front, authority in
      let run = try await Self.fetchFile(
        server, front, authority, size: 100_000, faults: FaultPlan(truncateBody: true))
      // 18: CURLE_PARTIAL_FILE, as over plain http: socat passes the close on as a TLS close.
      #expect(run.code == 18, "\(run)")
      #expect(run.stderr.contains("50000 bytes remaining to read"), "\(run)")
      #expect(run.body == ServedFile.generatedBytes(offset: 0, count: 50_000))
    }
  }

  /// What socat cannot pass on: a reset from the backend reaches the TLS client as an orderly
  /// TLS close (close_notify), so over https a reset mid-body looks like a close mid-body.
  @Test func aResetMidBodyReachesTheTLSClientAsACloseMidBody() async throws {
    try await Self.withFront { server, front, authority in
      let run = try await Self.fetchFile(
        server, front, authority, size: 100_000, faults: FaultPlan(resetMidBody: true))
      #expect(run.code == 18, "\(run)")
      #expect(run.body == ServedFile.generatedBytes(offset: 0, count: 50_000))
      // Straight to the server, the same fault is a reset: 56, CURLE_RECV_ERROR.
      let plain = try await Curl.run(["http://127.0.0.1:\(front.backendPort)/file"])
      #expect(plain.code == 56, "\(plain)")
      #expect(plain.stderr.contains("reset"), "\(plain)")
    }
  }

  @Test func aRefusedBackendClosesTheTLSConnection() async throws {
    let authority = try await TestCertificateAuthority.make()
    defer { authority.remove() }
    // Port 9 (discard): nothing listens there, as for the binary harness's default mirror.
    let front = try await TLSFront.start(backendPort: 9, authority: authority)
    let run = try await Curl.run(
      ["--cacert", authority.certificatePath, front.url.absoluteString + "/books/"])
    await front.stop()
    // The handshake succeeds, then socat fails to reach the backend and closes: curl reads
    // either 52, CURLE_GOT_NOTHING ("Empty reply from server"), or 56, CURLE_RECV_ERROR
    // ("Connection reset by peer", when its request was still unread); never a success.
    #expect(run.code == 52 || run.code == 56, "\(run)")
    #expect(run.body.isEmpty)
  }

  @Test func stopEndsSocatAndEveryConnection() async throws {
    try await Self.withFront { server, front, authority in
      server.faults = FaultPlan(stallAfterHeaders: true)
      let stalled = try ChildProcess(
        executable: try SystemTool.path("curl"),
        arguments: [
          "-sS", "--cacert", authority.certificatePath, front.url.absoluteString + "/books/",
        ],
        environment: ["PATH": "/usr/bin:/bin"])
      stalled.closeInput()
      try await Awaiting.condition("curl's stalled request to reach the server through socat") {
        server.requestCount > 0
      }
      #expect(server.requestCount == 1, "the stalled request reached the server")
      let connections = front.connectionProcessIDs
      // One forked socat for the open connection (and maybe one ending the readiness probe's).
      #expect(!connections.isEmpty)
      await front.stop()
      // The tunnel's socat is gone, so curl sees its connection end instead of waiting.
      let exit = await stalled.wait(timeout: .seconds(10))
      #expect(exit.timedOut == false && exit.code != 0, "\(exit)")
      for pid in [front.processID] + connections {
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(pid)"), "\(pid) is reaped")
      }
      let again = try await Curl.run(
        ["--cacert", authority.certificatePath, front.url.absoluteString + "/books/"])
      // 7: CURLE_COULDNT_CONNECT.
      #expect(again.code == 7, "\(again)")
    }
  }
}
