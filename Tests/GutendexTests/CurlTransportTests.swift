import Foundation
import Gutendex
import GutendexServer
import TestSupport
import TestTraits
import Testing

/// The production transport against real servers on loopback: back-pressure, cancellation,
/// timeouts that do not count the reader's time, the minimum speed, and heads no server should
/// send.
@Suite(.ownThread) struct CurlTransportTests {
  /// A loopback server serving one generated file of `size` bytes at `/f.bin`.
  private func fileServer(size: Int) async throws -> (LoopbackServer, URL) {
    let server = LoopbackServer(handler: NotFound())
    let base = try await server.start()
    server.serve(ServedFile(content: .generated(size: size)), at: "/f.bin")
    return (server, base.appendingPathComponent("f.bin"))
  }

  /// While a reader is slower than the network, the server can get ahead of it by no more than
  /// the transport's batch and the sockets' buffers: it is the reader that sets the pace.
  @Test func aSlowReaderHoldsTheServerBack() async throws {
    let size = 64 * 1_048_576
    let (server, url) = try await fileServer(size: size)
    defer { Task { await server.stop() } }
    let response = try await CurlTransport().open(HTTPRequest(url: url))
    #expect(response.status == 200)
    #expect(response.body.length == Int64(size))
    var consumed = 0
    var furthestAhead = 0
    var pieces = 0
    for try await piece in response.body {
      consumed += piece.count
      pieces += 1
      furthestAhead = max(furthestAhead, server.bodyBytesSent - consumed)
      if pieces <= 3 {
        // The reader is a slow disk for its first pieces: 300 ms each, in which loopback could
        // carry the whole file.
        try await Task.sleep(for: .milliseconds(300))
        furthestAhead = max(furthestAhead, server.bodyBytesSent - consumed)
      }
    }
    #expect(consumed == size)
    // Without back-pressure the server writes on while the reader sleeps (tens of MB each
    // time); with it, it stays within a batch plus what loopback's socket buffers hold.
    #expect(furthestAhead <= 16 * 1_048_576, "server ahead by \(furthestAhead) bytes")
    #expect(pieces > 4)
  }

  /// Cancelling the reader's task ends the transfer at once: the server stops being read.
  @Test func cancellingTheReaderEndsTheTransfer() async throws {
    let (server, url) = try await fileServer(size: 512 * 1_048_576)
    defer { Task { await server.stop() } }
    let firstPiece = AsyncStream<Void>.makeStream()
    let reader = Task {
      let response = try await CurlTransport().open(HTTPRequest(url: url))
      var total = 0
      for try await piece in response.body {
        total += piece.count
        firstPiece.continuation.yield()
      }
      return total
    }
    for await _ in firstPiece.stream { break }
    reader.cancel()
    let outcome = await reader.result
    #expect(throws: GutendexError.self) { try outcome.get() }
    #expect(server.bodyBytesSent < 64 * 1_048_576, "\(server.bodyBytesSent) bytes sent")
  }

  /// The idle timeout is the server's silence, not the reader's: a reader that waits longer than
  /// the timeout between pieces still gets the whole body.
  @Test func timeSpentByTheReaderIsNotASilence() async throws {
    let size = 4 * 1_048_576
    let (server, url) = try await fileServer(size: size)
    defer { Task { await server.stop() } }
    let response = try await CurlTransport().open(
      HTTPRequest(url: url, timeout: .seconds(2)))
    var received = Data()
    for try await piece in response.body {
      if received.isEmpty {
        // More than twice the timeout: the transfer is paused meanwhile, not silent.
        try await Task.sleep(for: .seconds(5))
      }
      received.append(piece)
    }
    #expect(received == ServedFile.generatedBytes(offset: 0, count: size))
  }

  /// A server that sends its head and then nothing is timed out after the request's timeout.
  @Test func aSilentServerTimesOut() async throws {
    let (server, url) = try await fileServer(size: 1_048_576)
    defer { Task { await server.stop() } }
    server.faults = FaultPlan(stallAfterHeaders: true)
    // Counted time (less what the machine was starved of CPU): a loaded run's wall time says
    // nothing about whether the transfer waited.
    let (error, took) = await StarvedDeadline.counted {
      await #expect(throws: GutendexError.self) {
        _ = try await CurlTransport().send(HTTPRequest(url: url, timeout: .milliseconds(400)))
      }
    }
    #expect(error == .timedOut(url: url, after: .milliseconds(400)))
    #expect(took < .seconds(10))
  }

  /// A server slower than the minimum speed for a whole window is cut off as too slow, though
  /// it is never silent for as long as the timeout.
  @Test func aTricklingServerIsCutOffAtTheMinimumSpeed() async throws {
    let (server, url) = try await fileServer(size: 8 * 1_048_576)
    defer { Task { await server.stop() } }
    // Files mode's mid-body stall sends half the file, then nothing: below any minimum.
    server.faults = FaultPlan(stallMidBody: true)
    let minimum = MinimumSpeed(bytesPerSecond: 10 * 1_048_576, window: .milliseconds(500))
    let request = HTTPRequest(url: url, timeout: .seconds(30), minimumSpeed: minimum)
    let error = await #expect(throws: GutendexError.self) {
      _ = try await CurlTransport(maxBodySize: 1 << 30).send(request)
    }
    #expect(error == .tooSlow(url: url, minimum: minimum))
  }

  /// A header value that would smuggle in another header is refused before anything is sent.
  @Test(arguments: ["\"v1\"\r\nX-Injected: 1", "a\nb", "a\rb", "nul\u{0}byte", "\u{7F}"])
  func headerValuesWithLineBreaksAreNeverSent(_ value: String) async throws {
    let (server, url) = try await fileServer(size: 10)
    defer { Task { await server.stop() } }
    let request = HTTPRequest(url: url, headers: ["If-Range": value])
    await #expect(throws: GutendexError.self) {
      _ = try await CurlTransport().send(request)
    }
    #expect(server.requestCount == 0)
  }

  /// Lengths no server should send are bad data, never a crash or a guess.
  @Test(arguments: [
    "Content-Length: -5\r\n",
    "Content-Length: 9223372036854775808\r\n",
    "Content-Length: 99999999999999999999999\r\n",
    "Content-Length: 10\r\nContent-Length: 12\r\n",
    "Content-Length: 1e3\r\n",
  ])
  func badLengthsAreBadData(_ lengths: String) async throws {
    let responder = try RawResponder(
      response: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + lengths
        + "Connection: close\r\n\r\n{}")
    defer { responder.stop() }
    let error = await #expect(throws: GutendexError.self) {
      _ = try await CurlTransport().send(HTTPRequest(url: responder.url, timeout: .seconds(5)))
    }
    guard case .badData? = error else {
      Issue.record("expected bad data, got \(String(describing: error))")
      return
    }
  }

  /// The proxy and CA variables are read as the curl tool reads them.
  @Test func proxiesAndCertificatesComeFromTheEnvironmentAsCurlReadsThem() throws {
    let url = URL(string: "https://example.org/")!
    let plain = URL(string: "http://example.org/")!
    let lower = CurlTransport(environment: [
      "https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:1",
      "HTTP_PROXY": "http://plain:1", "NO_PROXY": "localhost", "SSL_CERT_FILE": "/ca.pem",
      "CURL_CA_BUNDLE": "/bundle.pem",
    ])
    #expect(lower.proxyDescription(for: url) == "http://lower:1")
    #expect(lower.proxyDescription(for: plain) == "http://plain:1")
    #expect(lower.certificateFile == "/bundle.pem")
    let all = CurlTransport(environment: ["ALL_PROXY": "socks5://all:1", "SSL_CERT_FILE": "/c"])
    #expect(all.proxyDescription(for: url) == "socks5://all:1")
    #expect(all.certificateFile == "/c")
    let none = CurlTransport(environment: [:])
    #expect(none.proxyDescription(for: url) == nil)
    #expect(none.certificateFile == nil)
  }
}

/// Answers 404 to anything that is not a served file.
private struct NotFound: Requestable {
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    HTTPResponse(status: 404, url: request.url)
  }
}
