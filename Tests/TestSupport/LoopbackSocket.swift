import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Blocking TCP sockets on 127.0.0.1, for the harness pieces that run on their own threads
/// (``LoopbackProxy``) or only need a port (``TLSFront``). Every call returns or fails; none
/// waits without a bound (reads and writes carry `SO_RCVTIMEO`/`SO_SNDTIMEO` where set).
enum LoopbackSocket {
  /// A socket call that failed, with the system's reason.
  struct Failure: Error, CustomStringConvertible {
    var description: String

    init(_ call: String, _ code: Int32 = errno) {
      description = "\(call): \(String(cString: strerror(code)))"
    }
  }

  private static func address(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }

  private static func newSocket() throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure("socket") }
    // Close-on-exec: a child spawned meanwhile (the binary, socat) must not hold our sockets.
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    return fd
  }

  /// A listening socket on 127.0.0.1:`port` (0: the system picks one).
  static func listen(port: UInt16 = 0, backlog: Int32 = 64) throws -> Int32 {
    let fd = try newSocket()
    var on: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = address(port: port)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
      let failure = Failure("bind/listen 127.0.0.1:\(port)")
      close(fd)
      throw failure
    }
    return fd
  }

  /// The local port a socket is bound to.
  static func localPort(_ fd: Int32) throws -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { throw Failure("getsockname") }
    return UInt16(bigEndian: address.sin_port)
  }

  /// A port that was free a moment ago: bound, read and released, for a program (socat) that
  /// cannot listen on port 0 and say which port it got. Another process may take it in
  /// between; the caller retries when its program fails to bind.
  static func freePort() throws -> UInt16 {
    let fd = try listen(port: 0, backlog: 1)
    defer { close(fd) }
    return try localPort(fd)
  }

  /// A connected socket to 127.0.0.1:`port`; loopback connects are answered at once (accepted
  /// or refused), so this does not wait.
  static func connect(port: UInt16) throws -> Int32 {
    let fd = try newSocket()
    var address = address(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let failure = Failure("connect 127.0.0.1:\(port)")
      close(fd)
      throw failure
    }
    return fd
  }

  /// Whether something accepts connections on 127.0.0.1:`port` right now.
  static func accepts(port: UInt16) -> Bool {
    guard let fd = try? connect(port: port) else { return false }
    close(fd)
    return true
  }

  /// Bounds every later `read` and `write` on `fd` to `timeout` (they fail with EAGAIN then).
  static func setTimeouts(_ fd: Int32, _ timeout: Duration) {
    let seconds = timeout.components.seconds
    var value = timeval(
      tv_sec: Int(seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
    let size = socklen_t(MemoryLayout<timeval>.size)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, size)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, size)
  }

  /// Writes all of `bytes`; false when the peer is gone or a write timed out.
  @discardableResult
  static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) -> Bool {
    let bytes = Array(bytes)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Reads what is there (up to `buffer.count`): the count, 0 at end of stream, -1 on error.
  static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      return count
    }
  }

  /// Waits up to `milliseconds` for `fds` to become readable (or closed); the `revents` of each.
  static func poll(_ fds: [Int32], milliseconds: Int32) -> [Int16] {
    var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let result = entries.withUnsafeMutableBufferPointer {
      Glibc.poll($0.baseAddress, nfds_t($0.count), milliseconds)
    }
    guard result > 0 else { return Array(repeating: 0, count: fds.count) }
    return entries.map(\.revents)
  }
}
