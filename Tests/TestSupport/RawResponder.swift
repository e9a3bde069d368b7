import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback server that answers every connection with the same bytes, written as given: the
/// malformed heads no real server library would send (`Content-Length: -5`, two different
/// lengths, a length past `Int64`), then closes. One thread, 127.0.0.1 only, a bounded number of
/// connections.
public final class RawResponder: Sendable {
  /// `http://127.0.0.1:<port>`.
  public let url: URL
  private let listener: Int32
  private let stopped = Mutex(false)

  /// Starts answering up to `connections` connections with `response` (after reading the
  /// request head); with `holdOpen`, the connection then stays open (silent) until the client
  /// closes it or that much time has passed, like a server still sending.
  public init(response: String, connections: Int = 8, holdOpen: Duration = .zero) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessFailure(description: "socket: \(errno)") }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      close(fd)
      throw HarnessFailure(description: "bind/listen: \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let port = UInt16(bigEndian: address.sin_port)
    url = URL(string: "http://127.0.0.1:\(port)")!
    listener = fd
    let bytes = Array(response.utf8)
    let thread = Thread {
      for _ in 0..<connections {
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return }
        Self.readHead(client)
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if holdOpen > .zero { Self.waitForClose(client, upTo: holdOpen) }
        close(client)
      }
    }
    thread.start()
  }

  /// Stops accepting (the thread ends on its next accept).
  public func stop() {
    // Once: a second close could close a descriptor the process has reused meanwhile.
    guard
      !stopped.withLock({ stopped in
        defer { stopped = true }
        return stopped
      })
    else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  deinit {
    stop()
  }

  /// Waits until the peer closes (a read of 0 bytes) or `limit` has passed.
  private static func waitForClose(_ fd: Int32, upTo limit: Duration) {
    let deadline = ContinuousClock.now + limit
    var buffer = [UInt8](repeating: 0, count: 512)
    while ContinuousClock.now < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) >= 0 else { return }
      if poller.revents != 0, recv(fd, &buffer, buffer.count, 0) <= 0 { return }
    }
  }

  /// Reads until the blank line ending the request head (or 64 KiB, or the peer closing).
  private static func readHead(_ fd: Int32) {
    var seen: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while seen.count < 65_536 {
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { return }
      seen += buffer[0..<count]
      if seen.count >= 4, Array(seen.suffix(4)) == Array("\r\n\r\n".utf8) { return }
    }
  }
}
