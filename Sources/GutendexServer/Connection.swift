import FlyingSocks
import Foundation

/// One accepted client connection: reads requests one after another and answers each.
struct Connection {
  let server: LoopbackServer
  let socket: AsyncSocket
  /// The server's port, for URLs when a request has no `Host`.
  let port: UInt16
  /// Bytes read but not yet used (the start of a pipelined request, say).
  var buffer: [UInt8] = []

  init(server: LoopbackServer, socket: AsyncSocket, port: UInt16) {
    self.server = server
    self.socket = socket
    self.port = port
  }

  /// How an exchange leaves the connection.
  enum Ending: Sendable, Hashable {
    /// Ready for the next request.
    case keepAlive
    /// Close normally (FIN).
    case close
    /// Stop sending, read what the client still sends, then close: the client gets to read
    /// an error response instead of a reset caused by unread request bytes.
    case drainAndClose
    /// Close with SO_LINGER 0 so the client sees a reset (RST).
    case abort
  }

  /// Serves requests until the client leaves, an exchange closes the connection, or the server
  /// stops (cancellation).
  mutating func run() async {
    var ending = Ending.close
    do {
      repeat {
        ending = try await serveOne()
      } while ending == .keepAlive
    } catch {
      // A read or write failed: the client went away or the server is stopping.
      ending = .close
    }
    await close(ending)
  }

  private mutating func serveOne() async throws -> Ending {
    let head: RequestHead
    do {
      guard let parsed = try await readHead() else { return .close }
      head = parsed
    } catch RequestHead.Failure.tooLarge {
      return try await refuse(
        431, "request head larger than \(LoopbackServer.maxRequestHeadSize) bytes")
    } catch RequestHead.Failure.malformed(let reason) {
      return try await refuse(400, reason)
    }
    let length: Int
    do {
      length = try head.contentLength()
    } catch {
      return try await refuse(400, "bad Content-Length")
    }
    if head.header("transfer-encoding") != nil {
      return try await refuse(400, "request bodies need a Content-Length")
    }
    if length > LoopbackServer.maxRequestBodySize {
      return try await refuse(413, "request body too large")
    }
    let body = try await readBody(length)
    return try await respond(to: head, body: body)
  }

  /// Reads up to the end of a request head; nil when the client closed before sending one.
  private mutating func readHead() async throws -> RequestHead? {
    var scanned = 0
    while true {
      // RFC 9112 §2.2: ignore empty lines before a request line.
      while buffer.first == UInt8(ascii: "\r") || buffer.first == UInt8(ascii: "\n") {
        buffer.removeFirst()
        scanned = 0
      }
      if let end = RequestHead.endOfHead(in: buffer, from: max(0, scanned - 3)) {
        guard end <= LoopbackServer.maxRequestHeadSize else { throw RequestHead.Failure.tooLarge }
        let bytes = buffer[..<end]
        let head = try RequestHead.parse(bytes)
        buffer.removeFirst(end)
        return head
      }
      guard buffer.count <= LoopbackServer.maxRequestHeadSize else {
        throw RequestHead.Failure.tooLarge
      }
      scanned = buffer.count
      let chunk: [UInt8]
      do {
        chunk = try await socket.read(atMost: 4096)
      } catch SocketError.disconnected where buffer.isEmpty {
        return nil
      }
      buffer += chunk
    }
  }

  /// Reads a request body of `count` bytes (at most ``LoopbackServer/maxRequestBodySize``),
  /// for the handler: nil when there is none.
  private mutating func readBody(_ count: Int) async throws -> Data? {
    guard count > 0 else { return nil }
    let buffered = min(count, buffer.count)
    var body = Data(buffer.prefix(buffered))
    buffer.removeFirst(buffered)
    while body.count < count {
      body.append(contentsOf: try await socket.read(atMost: min(count - body.count, 4096)))
    }
    return body
  }

  /// Answers a request the server will not serve, and closes.
  private func refuse(_ status: Int, _ reason: String) async throws -> Ending {
    var head = ResponseHead(status: status)
    let body = Data((reason + "\n").utf8)
    head.add("Content-Type", "text/plain; charset=utf-8")
    head.add("Content-Length", String(body.count))
    head.add("Connection", "close")
    try await socket.write(head.encoded + body)
    return .drainAndClose
  }

  /// Writes body bytes and counts them.
  func writeBody(_ data: Data) async throws {
    try await socket.write(data)
    server.countBodyBytes(data.count)
  }

  /// Reads and drops whatever arrives until the client closes or the server stops.
  func waitForPeerToClose(limit: Int = .max) async {
    var read = 0
    while read < limit {
      do {
        read += try await socket.read(atMost: 4096).count
      } catch {
        return
      }
    }
  }

  /// Sends nothing more until the client closes, the server stops, or a test ends the stall
  /// (``LoopbackServer/endStalls()``).
  func stall() async {
    let descriptor = socket.socket.file.rawValue
    server.setStalled(descriptor, true)
    await waitForPeerToClose()
    server.setStalled(descriptor, false)
  }

  private func close(_ ending: Ending) async {
    switch ending {
    case .keepAlive, .close:
      break
    case .abort:
      try? socket.socket.setValue(0, for: LingerSocketOption())
    case .drainAndClose:
      _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
      // Bounded both ways: a megabyte, or two seconds, whichever comes first.
      let connection = self
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await connection.waitForPeerToClose(limit: 1_048_576) }
        group.addTask { try? await Task.sleep(for: .seconds(2)) }
        await group.next()
        group.cancelAll()
      }
    }
    // Forgotten first, so ``LoopbackServer/stop()`` never shuts down a descriptor reused since.
    server.forget(socket.socket.file.rawValue)
    try? socket.close()
  }
}
