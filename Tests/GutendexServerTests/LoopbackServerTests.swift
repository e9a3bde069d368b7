import Foundation
import Gutendex
import Synchronization
import TestSupport
import TestTraits
import Testing

@testable import GutendexServer

/// Plain HTTP over loopback: the production client and transport, and a bare socket.
@Suite(.ownThread) struct LoopbackServerTests {
  @Test func pageDecodesThroughTheProductionClient() async throws {
    try await withServer { server, url in
      let page = try await makeClient(url).page(BookQuery())
      let recorded = try BookPage.decode(from: Fixtures.page1())
      #expect(page == recorded)
      #expect(page.results.count == 32)
      #expect(page.results.first?.title == "Frankenstein; Or, The Modern Prometheus")
      #expect(server.requests == ["/books/"])
    }
  }

  @Test func startReturnsLoopbackURLWithTheBoundPort() async throws {
    try await withServer { server, url in
      #expect(url.scheme == "http")
      #expect(url.host == "127.0.0.1")
      #expect((url.port ?? 0) > 0)
      #expect(server.url == url)
      await #expect(throws: LoopbackServerError.alreadyRunning) { _ = try await server.start() }
    }
  }

  @Test func handlerSeesAbsoluteURLBuiltFromHostHeader() async throws {
    let seen = Recorder<HTTPRequest>()
    let handler = ClosureHandler { request in
      seen.append(request)
      return HTTPResponse(status: 204, url: request.url)
    }
    try await withServer(handler: handler) { _, url in
      let response = try await CurlTransport().send(
        HTTPRequest(
          url: url.appending(path: "books/").appending(queryItems: [
            URLQueryItem(name: "search", value: "dickens great")
          ])))
      #expect(response.status == 204)
      let request = try #require(seen.all.first)
      #expect(request.method == "GET")
      #expect(request.url.absoluteString == "\(url.absoluteString)/books/?search=dickens%20great")
      #expect(request.headers["host"] == "127.0.0.1:\(url.port ?? 0)")
    }
  }

  @Test func sequentialRequestsReuseOneConnection() async throws {
    try await withServer { server, url in
      let client = makeClient(url)
      for _ in 0..<5 {
        _ = try await client.page(BookQuery())
      }
      #expect(server.requestCount == 5)
      #expect(server.connectionCount == 1)
    }
  }

  @Test func keepAliveAndConnectionCloseOnOneRawConnection() async throws {
    try await withServer { server, url in
      let page1 = try Fixtures.page1()
      let page10 = try Fixtures.page10()
      try await withTimeout {
        var raw = try await RawHTTPClient.connect(to: url)
        defer { raw.close() }
        try await raw.send("GET /books/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let first = try await raw.readResponse()
        #expect(first.status == 200)
        #expect(first.headers["connection"] == "keep-alive")
        #expect(first.headers["content-type"] == "application/json")
        #expect(first.body == page1)
        try await raw.send(
          "GET /books/?page=10 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let second = try await raw.readResponse()
        #expect(second.headers["connection"] == "close")
        #expect(second.body == page10)
        #expect(try await raw.readUntilClosed().isEmpty)
      }
      #expect(server.connectionCount == 1)
      #expect(server.requests == ["/books/", "/books/?page=10"])
    }
  }

  @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
    try await withServer { server, url in
      try await withTimeout {
        var raw = try await RawHTTPClient.connect(to: url)
        defer { raw.close() }
        try await raw.send(
          "GET /nothing/ HTTP/1.1\r\nHost: a\r\n\r\nGET /books/ HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try await raw.readResponse().status == 404)
        #expect(try await raw.readResponse().status == 200)
      }
      #expect(server.requests == ["/nothing/", "/books/"])
    }
  }

  @Test func http10ClosesUnlessAskedToKeepAlive() async throws {
    try await withServer { _, url in
      try await withTimeout {
        var raw = try await RawHTTPClient.connect(to: url)
        defer { raw.close() }
        try await raw.send("GET /books/ HTTP/1.0\r\n\r\n")
        let response = try await raw.readResponse()
        #expect(response.status == 200)
        #expect(response.headers["connection"] == "close")
        #expect(try await raw.readUntilClosed().isEmpty)
      }
    }
  }

  @Test func headSendsHeadersOnlyAndKeepsTheConnectionUsable() async throws {
    try await withServer { _, url in
      let page1 = try Fixtures.page1()
      try await withTimeout {
        var raw = try await RawHTTPClient.connect(to: url)
        defer { raw.close() }
        try await raw.send("HEAD /books/ HTTP/1.1\r\nHost: a\r\n\r\n")
        let head = try await raw.readResponse(bodyless: true)
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(page1.count))
        #expect(head.body.isEmpty)
        // Had the server sent a body, it would be read here as the next status line.
        try await raw.send("GET /nothing/ HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try await raw.readResponse().status == 404)
      }
    }
  }

  @Test func headThroughCurlTransport() async throws {
    try await withServer { _, url in
      let response = try await CurlTransport().send(
        HTTPRequest(method: "HEAD", url: url.appending(path: "books/")))
      #expect(response.status == 200)
      #expect(response.body.isEmpty)
      #expect(response.header("content-length") == String(try Fixtures.page1().count))
    }
  }

  @Test func twentyParallelRequestsAllDecode() async throws {
    try await withServer { server, url in
      let client = makeClient(url)
      let counts = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<20 {
          group.addTask { try await client.page(BookQuery(page: index % 2 == 0 ? 1 : 10)).count }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(counts.count == 20)
      #expect(counts.filter { $0 == 77080 }.count == 10)
      #expect(counts.filter { $0 == 68800 }.count == 10)
      #expect(server.requestCount == 20)
    }
  }

  @Test func connectionsAreServedConcurrently() async throws {
    // Each request is held until all four are inside the handler at once: a server that
    // served one connection at a time would never get there, and the barrier would give up.
    let barrier = Barrier(parties: 4)
    let handler = ClosureHandler { request in
      let met = await barrier.arriveAndWait(limit: .seconds(60))
      return HTTPResponse(status: met ? 200 : 503, url: request.url)
    }
    try await withServer(handler: handler) { _, url in
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<4 {
          group.addTask {
            // Longer than the barrier's own limit, so a barrier that gives up says so (503).
            try await withTimeout(.seconds(90)) {
              var raw = try await RawHTTPClient.connect(to: url)
              defer { raw.close() }
              try await raw.send("GET /books/ HTTP/1.1\r\nHost: a\r\n\r\n")
              return try await raw.readResponse().status
            }
          }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(statuses == [200, 200, 200, 200])
    }
  }

  @Test func relativeRedirectIsFollowedByTheClient() async throws {
    try await withServer { server, url in
      let page = try await makeClient(url.appending(path: "old")).page(BookQuery())
      #expect(page.count == 77080)
      #expect(server.requests == ["/old/books/", "/books/"])
    }
  }

  @Test func hugeRequestHeadIsRefusedWith431() async throws {
    try await withServer { server, url in
      try await withTimeout {
        var raw = try await RawHTTPClient.connect(to: url)
        defer { raw.close() }
        let filler = String(repeating: "a", count: 60_000)
        try await raw.send("GET /books/ HTTP/1.1\r\nHost: a\r\nX-Filler: \(filler)\r\n\r\n")
        let response = try await raw.readResponse()
        #expect(response.status == 431)
        #expect(response.headers["connection"] == "close")
      }
      try await withTimeout {
        var raw = try await RawHTTPClient.connect(to: url)
        defer { raw.close() }
        let target = "/books/?search=" + String(repeating: "x", count: 40_000)
        try await raw.send("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try await raw.readResponse().status == 431)
      }
      #expect(server.requestCount == 0)
    }
  }

  @Test(arguments: [
    "NONSENSE\r\n\r\n",
    "GET /books/ HTTP/2.0\r\n\r\n",
    "GET books HTTP/1.1\r\n\r\n",
    "GET /books/ HTTP/1.1\r\nno colon here\r\n\r\n",
    "GET /books/ HTTP/1.1\r\nContent-Length: twelve\r\n\r\n",
  ])
  func malformedRequestsGet400(_ request: String) async throws {
    try await withServer { server, url in
      try await withTimeout {
        var raw = try await RawHTTPClient.connect(to: url)
        defer { raw.close() }
        try await raw.send(request)
        #expect(try await raw.readResponse().status == 400)
      }
      #expect(server.requestCount == 0)
    }
  }

  @Test func requestBodyIsSkippedNotMistakenForTheNextRequest() async throws {
    try await withServer { server, url in
      try await withTimeout {
        var raw = try await RawHTTPClient.connect(to: url)
        defer { raw.close() }
        let body = "GET /evil/ HTTP/1.1\r\n\r\n"
        try await raw.send(
          "POST /books/ HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            + "GET /nothing/ HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(try await raw.readResponse().status == 200)
        #expect(try await raw.readResponse().status == 404)
      }
      #expect(server.requests == ["/books/", "/nothing/"])
    }
  }

  @Test func handlerErrorsBecomeResponses() async throws {
    let handler = ClosureHandler { request in
      if request.url.path(percentEncoded: true) == "/gone/" {
        throw GutendexError.http(status: 404, detail: "Invalid page.", url: request.url)
      }
      throw CancellationError()
    }
    try await withServer(handler: handler) { _, url in
      let transport = CurlTransport()
      let gone = try await transport.send(HTTPRequest(url: url.appending(path: "gone/")))
      #expect(gone.status == 404)
      #expect(String(decoding: gone.body, as: UTF8.self) == #"{"detail":"Invalid page."}"#)
      let broken = try await transport.send(HTTPRequest(url: url.appending(path: "x/")))
      #expect(broken.status == 500)
    }
  }

  @Test func stoppedServerRefusesConnections() async throws {
    let server = LoopbackServer(handler: try Fixtures.handler())
    let url = try await server.start()
    _ = try await makeClient(url).page(BookQuery())
    await server.stop()
    #expect(server.url == nil)
    let error = await failure { try await makeClient(url).page(BookQuery()) }
    #expect(error?.kind == "unreachable")
    #expect(error?.url?.port == url.port)
    #expect(server.requestCount == 1)
  }

  @Test func serverRestartsAfterStop() async throws {
    let server = LoopbackServer(handler: try Fixtures.handler())
    _ = try await server.start()
    await server.stop()
    let url = try await server.start()
    let page = try await makeClient(url).page(BookQuery())
    await server.stop()
    #expect(page.results.count == 32)
  }
}

/// Lets `parties` tasks through together, or each alone once `limit` has passed (time the
/// machine was starved of CPU not counted: the other parties may be queued for a thread).
actor Barrier {
  private let parties: Int
  private var arrived = 0

  init(parties: Int) {
    self.parties = parties
  }

  /// True when every party arrived, false when the wait gave up.
  func arriveAndWait(limit: Duration) async -> Bool {
    arrived += 1
    let deadline = StarvedDeadline(limit)
    while arrived < parties, !deadline.hasPassed {
      try? await Task.sleep(for: .milliseconds(20))
    }
    return arrived >= parties
  }
}
