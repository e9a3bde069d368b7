import Foundation
import TestSupport
import TestTraits
import Testing

@testable import GutendexServer

/// Responses a test holds or stalls and then lets go of when it chooses: `endStalls()`,
/// `releaseHeld()`, and a stop that ends held requests too.
@Suite(.ownThread) struct ServerGateTests {
  static let content = ServedFile.generatedBytes(offset: 0, count: 1000)

  /// Sends `request` on a new connection; returns the client, to read the answer from.
  func send(_ request: String, to url: URL) async throws -> RawHTTPClient {
    let client = try await RawHTTPClient.connect(to: url)
    try await client.send(request)
    return client
  }

  @Test func endingAStallClosesTheResponseAndTheServerGoesOn() async throws {
    try await withServer { server, url in
      server.serve(ServedFile(content: .bytes(Self.content)), at: "/f.bin")
      server.faults = FaultPlan(stallMidBody: true, remainingRequests: 1)
      #expect(server.endStalls() == 0, "nothing stalls yet")
      let client = try await send("GET /f.bin HTTP/1.1\r\nHost: x\r\n\r\n", to: url)
      defer { client.close() }
      try await Awaiting.condition("the response to stall") { server.stallCount == 1 }
      #expect(server.endStalls() == 1)
      let received = try await Awaiting.value("the stalled response to be closed") {
        var reader = client
        return try await reader.readUntilClosed()
      }
      let text = String(decoding: received, as: UTF8.self)
      #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text.prefix(200))")
      #expect(text.contains("Content-Length: 1000\r\n"), "the whole file was promised")
      #expect(received.suffix(500) == Self.content.prefix(500), "then half of it")
      #expect(server.stallCount == 0)

      // The plan's one request is spent: the next is answered whole.
      var next = try await send("GET /f.bin HTTP/1.1\r\nHost: x\r\n\r\n", to: url)
      defer { next.close() }
      let response = try await next.readResponse()
      #expect(response.status == 200)
      #expect(response.body == Self.content)
    }
  }

  @Test func aHeldRequestIsAnsweredOnlyOnceReleased() async throws {
    try await withServer { server, url in
      server.serve(ServedFile(content: .bytes(Self.content)), at: "/f.bin")
      server.faults = FaultPlan(holdUntilReleased: true)
      let client = try await send("GET /f.bin HTTP/1.1\r\nHost: x\r\n\r\n", to: url)
      defer { client.close() }
      try await Awaiting.condition("the request to be held") { server.heldCount == 1 }
      #expect(server.bodyBytesSent == 0, "nothing is answered while held")
      server.faults = .none
      #expect(server.releaseHeld() == 1)
      let response = try await Awaiting.value("the released request's answer") {
        var reader = client
        return try await reader.readResponse()
      }
      #expect(response.status == 200)
      #expect(response.body == Self.content)
      #expect(server.heldCount == 0)
    }
  }

  /// A request held when the server stops does not keep the stop waiting.
  @Test func stoppingEndsAHeldRequest() async throws {
    let server = LoopbackServer(handler: try Fixtures.handler())
    server.serve(ServedFile(content: .bytes(Self.content)), at: "/f.bin")
    server.faults = FaultPlan(holdUntilReleased: true)
    let url = try await server.start()
    let client = try await send("GET /f.bin HTTP/1.1\r\nHost: x\r\n\r\n", to: url)
    defer { client.close() }
    try await Awaiting.condition("the request to be held") { server.heldCount == 1 }
    try await Awaiting.value("the server to stop with a request held") { await server.stop() }
    #expect(server.heldCount == 0)
  }
}
