import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTP proxy on 127.0.0.1 for the proxy tests, on plain sockets and threads of its own.
///
/// It answers `CONNECT host:port` by tunnelling bytes both ways (how clients send https through
/// a proxy) and an absolute-form `GET http://host:port/path` by forwarding it to that host in
/// origin form with `Connection: close` (how they send plain http). It records every request
/// line it receives and refuses (403) any target that is not 127.0.0.1 or localhost, so
/// nothing leaves the machine. Every wait is bounded: threads poll with a timeout and end once
/// ``stop()`` is called; socket reads and writes time out.
public final class LoopbackProxy: Sendable {
  private struct State {
    var requestLines: [String] = []
    var refused: [String] = []
    var threads = 0
  }

  private let listener: Int32
  /// The port it listens on.
  public let port: UInt16
  /// Answers every request, CONNECT or not, with 407 Proxy Authentication Required.
  private let demandsLogin: Bool
  /// Hosts served by a loopback port instead of refused (`aleph.pglaf.org` → a test server).
  private let routes: [String: UInt16]
  private let state = Mutex(State())
  private let stopping = Atomic<Bool>(false)

  /// How long a read or write on a relayed connection may block (a stalled download through
  /// the proxy still ends: the client's own timeout is shorter).
  static let ioTimeout = Duration.seconds(120)
  /// The largest request head read.
  static let maxHeadSize = 64 * 1024

  /// Listens on a free port of 127.0.0.1 and starts accepting; with `demandsLogin`, answers
  /// every request with 407, as a proxy does to a client that gave no credentials.
  /// `routes` names hosts whose requests go to a port of 127.0.0.1 instead of being refused,
  /// so a client's requests to a public host are answered on this machine.
  public init(demandsLogin: Bool = false, routes: [String: UInt16] = [:]) throws {
    self.demandsLogin = demandsLogin
    self.routes = Dictionary(uniqueKeysWithValues: routes.map { ($0.key.lowercased(), $0.value) })
    listener = try LoopbackSocket.listen()
    do {
      port = try LoopbackSocket.localPort(listener)
    } catch {
      close(listener)
      throw error
    }
    startAccepting()
  }

  /// `http://127.0.0.1:<port>`, the value for `https_proxy` / `http_proxy`.
  public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Every request line received, in order (`CONNECT 127.0.0.1:4433 HTTP/1.1`).
  public var requestLines: [String] { state.withLock { $0.requestLines } }

  /// The request lines answered with 403 because their target was not on this machine.
  public var refusedLines: [String] { state.withLock { $0.refused } }

  /// Runs `body` on a thread of its own, counted so ``stop()`` can wait for it.
  private func spawn(_ body: @escaping @Sendable (LoopbackProxy) -> Void) {
    state.withLock { $0.threads += 1 }
    let thread = Thread { [self] in
      body(self)
      state.withLock { $0.threads -= 1 }
    }
    thread.start()
  }

  private var isStopping: Bool { stopping.load(ordering: .acquiring) }

  /// The accept loop holds the proxy weakly, so a proxy released without ``stop()`` still
  /// ends it (within one poll); the loop alone closes the listener, after its last `accept`.
  private func startAccepting() {
    let listener = self.listener
    state.withLock { $0.threads += 1 }
    let thread = Thread { [weak self] in
      while let proxy = self, !proxy.isStopping {
        guard LoopbackSocket.poll([listener], milliseconds: 50)[0] != 0 else { continue }
        let client = accept(listener, nil, nil)
        guard client >= 0 else { continue }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        LoopbackSocket.setTimeouts(client, Self.ioTimeout)
        proxy.spawn { proxy in
          proxy.serve(client)
          close(client)
        }
      }
      close(listener)
      self?.state.withLock { $0.threads -= 1 }
    }
    thread.start()
  }

  /// Reads one request head and answers it: a tunnel, a forwarded request, or an error.
  private func serve(_ client: Int32) {
    guard let (head, rest) = readHead(client) else { return }
    let lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.first ?? ""
    state.withLock { $0.requestLines.append(requestLine) }
    let parts = requestLine.split(separator: " ").map(String.init)
    guard parts.count == 3 else { return answer(client, 400, "Bad Request") }
    if demandsLogin { return answer(client, 407, "Proxy Authentication Required") }
    let (method, target) = (parts[0], parts[1])
    let destination: (host: String, port: UInt16)?
    if method == "CONNECT" {
      destination = Self.authority(target)
    } else {
      destination = URLComponents(string: target).flatMap { url in
        url.scheme == "http" ? (url.host ?? "", UInt16(url.port ?? 80)) : nil
      }
    }
    guard let destination else { return answer(client, 400, "Bad Request") }
    let port: UInt16
    if let routed = routes[destination.host.lowercased()] {
      port = routed
    } else if ["127.0.0.1", "localhost"].contains(destination.host.lowercased()) {
      port = destination.port
    } else {
      state.withLock { $0.refused.append(requestLine) }
      return answer(client, 403, "Forbidden")
    }
    guard let upstream = try? LoopbackSocket.connect(port: port) else {
      return answer(client, 502, "Bad Gateway")
    }
    defer { close(upstream) }
    LoopbackSocket.setTimeouts(upstream, Self.ioTimeout)
    if method == "CONNECT" {
      guard
        LoopbackSocket.writeAll(client, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
      else { return }
    } else {
      let forwarded = Self.originForm(
        lines: lines, method: method, target: target, version: parts[2])
      guard LoopbackSocket.writeAll(upstream, Array(forwarded.utf8)) else { return }
    }
    guard rest.isEmpty || LoopbackSocket.writeAll(upstream, rest) else { return }
    relay(client, upstream)
  }

  /// `host:port` of a CONNECT target (`[::1]:443` is not loopback IPv4 and is refused anyway).
  private static func authority(_ target: String) -> (host: String, port: UInt16)? {
    guard let colon = target.lastIndex(of: ":"),
      let port = UInt16(target[target.index(after: colon)...])
    else { return nil }
    return (String(target[..<colon]), port)
  }

  /// The request head as the origin server gets it: the path only, no proxy headers, and
  /// `Connection: close`, so each proxied connection carries one request and each request line
  /// is seen (and logged) here.
  private static func originForm(
    lines: [String], method: String, target: String, version: String
  ) -> String {
    let components = URLComponents(string: target)
    var path = components?.percentEncodedPath ?? "/"
    if path.isEmpty { path = "/" }
    if let query = components?.percentEncodedQuery { path += "?" + query }
    let dropped = ["proxy-connection", "connection", "keep-alive", "proxy-authorization"]
    let headers = lines.dropFirst().filter { line in
      guard !line.isEmpty else { return false }
      let name = line.prefix { $0 != ":" }.lowercased()
      return !dropped.contains(name)
    }
    return ([method + " " + path + " " + version] + headers + ["Connection: close", "", ""])
      .joined(separator: "\r\n")
  }

  private func answer(_ client: Int32, _ status: Int, _ reason: String) {
    let body = "\(status) \(reason) (loopback test proxy)\n"
    let response =
      "HTTP/1.1 \(status) \(reason)\r\n"
      + (status == 407 ? "Proxy-Authenticate: Basic realm=\"loopback\"\r\n" : "")
      + "Content-Type: text/plain\r\nContent-Length: "
      + "\(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    LoopbackSocket.writeAll(client, Array(response.utf8))
  }

  /// The request head (up to the blank line) and any bytes read past it; nil when the client
  /// closed, sent too much, or stayed silent past the read timeout.
  private func readHead(_ client: Int32) -> (String, [UInt8])? {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let end: [UInt8] = Array("\r\n\r\n".utf8)
    while received.count < Self.maxHeadSize, !isStopping {
      if let range = Self.firstRange(of: end, in: received) {
        let head = String(decoding: received[..<range.lowerBound], as: UTF8.self)
        return (head, Array(received[range.upperBound...]))
      }
      guard LoopbackSocket.poll([client], milliseconds: 50)[0] != 0 else { continue }
      let count = LoopbackSocket.read(client, into: &buffer)
      guard count > 0 else { return nil }
      received += buffer[0..<count]
    }
    return nil
  }

  private static func firstRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
    guard bytes.count >= needle.count else { return nil }
    for start in 0...(bytes.count - needle.count)
    where bytes[start..<(start + needle.count)].elementsEqual(needle) {
      return start..<(start + needle.count)
    }
    return nil
  }

  /// Copies bytes both ways until both sides have finished sending (each end is passed on as a
  /// half close), an error, or ``stop()``.
  private func relay(_ client: Int32, _ upstream: Int32) {
    var open = [true, true]
    let fds = [client, upstream]
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while open.contains(true), !isStopping {
      let events = LoopbackSocket.poll(fds, milliseconds: 50)
      for side in 0..<2 where open[side] && events[side] != 0 {
        let count = LoopbackSocket.read(fds[side], into: &buffer)
        if count > 0, LoopbackSocket.writeAll(fds[1 - side], buffer[0..<count]) { continue }
        if count < 0 { return }  // a reset or a timeout: closing both ends passes it on
        open[side] = false
        shutdown(fds[1 - side], Int32(SHUT_WR))
      }
    }
  }

  /// Stops accepting, ends every tunnel, and waits (up to 5 s) for its threads to finish.
  public func stop() async {
    guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let deadline = ContinuousClock.now + .seconds(5)
    while state.withLock({ $0.threads }) > 0, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
  }
}
