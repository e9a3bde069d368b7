import FlyingSocks
import Foundation
import TestSupport

/// A bare HTTP/1.1 client over one socket, for what URLSession hides: keep-alive on one
/// connection, HEAD framing, pipelining, huge heads, stalled responses.
struct RawHTTPClient {
  struct Response {
    var status: Int
    /// Lower-cased names.
    var headers: [String: String]
    var body: Data
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let socket: AsyncSocket
  /// The loop of this client's own socket pool.
  private let loop: Task<Void, Never>
  private var buffer: [UInt8] = []

  /// Connects with a socket pool of its own, whose loop runs on a thread of its own: FlyingSocks'
  /// shared client pool runs its loop on the cooperative pool, where it waits behind the
  /// parallel suites' work while the test's deadline runs.
  static func connect(to url: URL) async throws -> RawHTTPClient {
    guard let port = url.port else { throw Failure(description: "no port in \(url)") }
    let pool: some AsyncSocketPool = SocketPool.make()
    try await pool.prepare()
    let loop = Task(executorPreference: OwnThread.executor()) { _ = try? await pool.run() }
    do {
      // Not `AsyncSocket.connected(to:pool:timeout:)`: its timeout runs the connect in an
      // unstructured task, on the cooperative pool again. A loopback connect is answered at
      // once (accepted or refused), so it needs no timeout of its own.
      let socket = try AsyncSocket(socket: Socket(domain: AF_INET, type: .stream), pool: pool)
      try await socket.connect(to: .inet(ip4: "127.0.0.1", port: UInt16(port)))
      return RawHTTPClient(socket: socket, loop: loop)
    } catch {
      loop.cancel()
      throw error
    }
  }

  private init(socket: AsyncSocket, loop: Task<Void, Never>) {
    self.socket = socket
    self.loop = loop
  }

  func send(_ text: String) async throws {
    try await socket.write(Data(text.utf8))
  }

  func send(_ data: Data) async throws {
    try await socket.write(data)
  }

  /// Reads one response; `bodyless` for answers to HEAD.
  mutating func readResponse(bodyless: Bool = false) async throws -> Response {
    var end: Int?
    while end == nil {
      end = Self.endOfHead(buffer)
      if end == nil { buffer += try await socket.read(atMost: 4096) }
    }
    guard let end, let text = String(bytes: buffer[..<end], encoding: .utf8) else {
      throw Failure(description: "response head is not UTF-8")
    }
    buffer.removeFirst(end)
    let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
      let status = Int(statusLine.dropFirst(9).prefix(3))
    else {
      throw Failure(description: "bad status line in \(text)")
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { throw Failure(description: "bad header \(line)") }
      headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
    }
    let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
    while buffer.count < length {
      buffer += try await socket.read(atMost: 4096)
    }
    let body = Data(buffer[..<length])
    buffer.removeFirst(length)
    return Response(status: status, headers: headers, body: body)
  }

  /// Reads until the server closes; returns what arrived (after anything already buffered).
  mutating func readUntilClosed() async throws -> Data {
    while true {
      do {
        buffer += try await socket.read(atMost: 4096)
      } catch SocketError.disconnected {
        defer { buffer = [] }
        return Data(buffer)
      }
    }
  }

  func close() {
    try? socket.close()
    loop.cancel()
  }

  private static func endOfHead(_ bytes: [UInt8]) -> Int? {
    let terminator: [UInt8] = Array("\r\n\r\n".utf8)
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4) where Array(bytes[index..<index + 4]) == terminator {
      return index + 4
    }
    return nil
  }
}

/// Fails with an ``AwaitTimeout`` instead of hanging when `operation` takes longer than
/// `limit`, time the machine was starved of CPU not counted (`Awaiting.value`): a fixed
/// wall-clock limit of 60 s failed a loaded run, its raw exchange queued behind the other
/// suites.
func withTimeout<T: Sendable>(
  _ limit: Duration = Awaiting.standard, file: String = #fileID, line: Int = #line,
  _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await Awaiting.value(
    "the raw HTTP exchange to end", within: limit, file: file, line: line, of: operation)
}
