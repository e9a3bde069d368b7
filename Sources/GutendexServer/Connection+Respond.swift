import Foundation
import Gutendex

extension Connection {
  /// The body ``FaultPlan/invalidJSON`` sends: a page cut off inside a string.
  static let brokenJSON = Data(
    #"{"count": 3, "next": null, "results": [{"id": 84, "title": "Frankenst"#.utf8)

  /// Headers the server sets itself; a handler's or script's values for them are dropped.
  private static let framingHeaders: Set<String> = [
    "content-length", "connection", "transfer-encoding", "keep-alive",
  ]

  /// Answers one request, applying the fault plan current when it arrived.
  func respond(to head: RequestHead, body: Data? = nil) async throws -> Ending {
    let (plan, scripted) = server.begin(head.target)
    if plan.holdUntilReleased {
      await server.waitUntilReleased()
    }
    if plan.latency > .zero {
      try await Task.sleep(for: plan.latency)
    }
    let isHead = head.method == "HEAD"
    let keepAlive = head.keepAlive
    if let scripted {
      return try await send(
        status: scripted.status, headers: scripted.headers, body: scripted.body, isHead: isHead,
        keepAlive: keepAlive)
    }
    if plan.redirectToForeignHost {
      return try await send(
        status: 302, headers: ["Location": FaultPlan.foreignRedirectTarget], body: Data(),
        isHead: isHead, keepAlive: keepAlive)
    }
    let path = String(head.target.prefix { $0 != "?" })
    if let route = server.fileRoute(path, head: head) {
      return try await respond(to: route, head: head, plan: plan, keepAlive: keepAlive)
    }
    if let oversized = plan.oversizedBody {
      try await stream(oversized, isHead: isHead)
      return .close
    }
    var response = await callHandler(head, body: body)
    if plan.hostileText, let rewritten = HostileText.rewrite(response.body) {
      response.body = rewritten
    }
    if plan.invalidJSON {
      response.body = Self.brokenJSON
      response.headers["content-type"] = "application/json"
    }
    if plan.wrongContentType {
      response.headers["content-type"] = "text/html; charset=utf-8"
    }
    guard !isHead, plan.stallAfterHeaders || plan.resetMidBody || plan.truncateBody else {
      return try await send(
        status: response.status, headers: response.headers, body: response.body, isHead: isHead,
        keepAlive: keepAlive)
    }
    // The headers promise the whole body; what follows breaks that promise.
    let responseHead = Self.head(
      status: response.status, headers: response.headers, length: response.body.count,
      keepAlive: keepAlive)
    try await socket.write(responseHead.encoded)
    if plan.stallAfterHeaders {
      await stall()
      return .close
    }
    try await writeBody(response.body.prefix(response.body.count / 2))
    return plan.resetMidBody ? .abort : .close
  }

  /// Sends a complete response (headers only for HEAD).
  private func send(
    status: Int, headers: [String: String], body: Data, isHead: Bool, keepAlive: Bool
  ) async throws -> Ending {
    let head = Self.head(status: status, headers: headers, length: body.count, keepAlive: keepAlive)
    try await socket.write(head.encoded)
    if !isHead, !body.isEmpty {
      try await writeBody(body)
    }
    return keepAlive ? .keepAlive : .close
  }

  private static func head(
    status: Int, headers: [String: String], length: Int, keepAlive: Bool
  ) -> ResponseHead {
    var head = ResponseHead(status: status)
    for (name, value) in headers.sorted(by: { $0.key < $1.key })
    where !framingHeaders.contains(name.lowercased()) {
      head.add(ResponseHead.canonicalName(name), value)
    }
    head.add("Content-Length", String(length))
    head.add("Connection", keepAlive ? "keep-alive" : "close")
    return head
  }

  /// Streams ``OversizedBody/bytes`` of JSON (blanks, then `{}`) in 64 KiB chunks.
  private func stream(_ oversized: OversizedBody, isHead: Bool) async throws {
    var head = ResponseHead(status: 200)
    head.add("Content-Type", "application/json")
    switch oversized.framing {
    case .contentLength: head.add("Content-Length", String(oversized.bytes))
    case .chunked: head.add("Transfer-Encoding", "chunked")
    case .closeDelimited: break
    }
    head.add("Connection", "close")
    try await socket.write(head.encoded)
    guard !isHead else { return }
    let chunkSize = 64 * 1024
    let blanks = Data(repeating: UInt8(ascii: " "), count: chunkSize)
    var remaining = oversized.bytes
    while remaining > 0 {
      try Task.checkCancellation()
      let count = min(chunkSize, remaining)
      var chunk = count == chunkSize ? blanks : blanks.prefix(count)
      if remaining == count {
        // End with a value so the whole body is valid JSON.
        chunk = chunk.prefix(max(0, count - 2)) + Data("{}".utf8).suffix(min(2, count))
      }
      if oversized.framing == .chunked {
        try await socket.write(Data((String(count, radix: 16) + "\r\n").utf8))
        try await writeBody(chunk)
        try await socket.write(Data("\r\n".utf8))
      } else {
        try await writeBody(chunk)
      }
      remaining -= count
    }
    if oversized.framing == .chunked {
      try await socket.write(Data("0\r\n\r\n".utf8))
    }
  }

  /// Asks the handler, turning its errors into the answers a Gutendex server would give.
  private func callHandler(_ head: RequestHead, body: Data?) async -> HTTPResponse {
    let host = head.header("host").flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1:\(port)"
    let text = head.target.hasPrefix("/") ? "http://\(host)\(head.target)" : head.target
    let fallback = URL(string: "http://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/")
    guard let url = URL(string: text), url.host != nil else {
      return Self.plain(400, "bad Host or request target", url: fallback)
    }
    // HEAD is GET without the body: handlers only need to know GET.
    let request = HTTPRequest(
      method: head.method == "HEAD" ? "GET" : head.method, url: url,
      headers: head.headerDictionary, body: body)
    do {
      return try await server.handler.send(request)
    } catch GutendexError.http(let status, let detail, _) {
      let body = ScriptedResponse.detail(status, detail ?? ResponseHead.reason(for: status))
      return HTTPResponse(status: status, headers: body.headers, body: body.body, url: url)
    } catch GutendexError.invalidRequest(let reason) {
      return Self.plain(400, reason, url: url)
    } catch {
      return Self.plain(500, "handler failed: \(error)", url: url)
    }
  }

  private static func plain(_ status: Int, _ text: String, url: URL) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: Data((text + "\n").utf8), url: url)
  }
}
