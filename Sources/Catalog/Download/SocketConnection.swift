import Foundation
import Gutendex
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One connection's socket, shared with the cancelling thread.
final class SocketConnection: Sendable {
  private struct State {
    var descriptor: Int32 = -1
    var cancelled = false
  }

  private let state = Mutex(State())

  /// Stops the exchange: a blocked read or write returns at once.
  func cancel() {
    let fd = state.withLock { state -> Int32 in
      state.cancelled = true
      return state.descriptor
    }
    if fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) }
  }

  func close() {
    let fd = state.withLock { state -> Int32 in
      defer { state.descriptor = -1 }
      return state.descriptor
    }
    if fd >= 0 { _ = Glibc.close(fd) }
  }

  private var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Connects, sends the request, hands over the head and then the body.
  func exchange(
    _ request: HTTPRequest, onHead: (StreamHead) throws -> StreamDisposition,
    onChunk: (Data) throws -> Void
  ) throws {
    let url = request.url
    guard let host = url.host, !host.isEmpty else {
      throw GutendexError.invalidRequest(reason: "no host in \(url.absoluteString)")
    }
    let port = url.port ?? 80
    let fd = try connect(host: host, port: port, url: url, timeout: request.timeout)
    var target = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/"
    if target.isEmpty { target = "/" }
    if let query = url.query { target += "?" + query }
    var text = "\(request.method) \(target) HTTP/1.1\r\n"
    text += "Host: \(host)\(url.port.map { ":\($0)" } ?? "")\r\nConnection: close\r\n"
    for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
      // A header value never ends the line early.
      let clean = value.filter { $0 != "\r" && $0 != "\n" }
      text += "\(name): \(clean)\r\n"
    }
    text += "\r\n"
    try send(Array(text.utf8), fd: fd, url: url)

    var buffer = [UInt8](repeating: 0, count: SocketStreamingTransport.bufferSize)
    var pending: [UInt8] = []
    var headEnd: Int?
    while headEnd == nil {
      let count = try receive(&buffer, fd: fd, url: url)
      guard count > 0 else {
        throw GutendexError.connectionLost(url: url, reason: "closed before the response head")
      }
      pending += buffer[0..<count]
      headEnd = Self.endOfHead(pending)
      if headEnd == nil, pending.count > SocketStreamingTransport.maxHeadSize {
        throw GutendexError.badData(url: url, path: "", reason: "response head too large")
      }
    }
    guard let end = headEnd else { return }
    let head = try Self.parseHead(Array(pending[0..<end]), url: url)
    var body = Array(pending[end...])
    guard try onHead(head) == .receive else { return }

    if head.header("transfer-encoding")?.lowercased().contains("chunked") == true {
      try readChunked(&body, &buffer, fd: fd, url: url, onChunk: onChunk)
      return
    }
    if let lengthText = head.header("content-length"),
      let length = Int64(lengthText.trimmingCharacters(in: .whitespaces))
    {
      var remaining = length
      if !body.isEmpty {
        let take = Int(min(Int64(body.count), remaining))
        try onChunk(Data(body[0..<take]))
        remaining -= Int64(take)
      }
      while remaining > 0 {
        let count = try receive(&buffer, fd: fd, url: url)
        guard count > 0 else {
          throw GutendexError.connectionLost(
            url: url, reason: "closed with \(remaining) of \(length) bytes still to come")
        }
        let take = Int(min(Int64(count), remaining))
        try onChunk(Data(buffer[0..<take]))
        remaining -= Int64(take)
      }
      return
    }
    // No length: the body ends when the server closes.
    if !body.isEmpty { try onChunk(Data(body)) }
    while true {
      let count = try receive(&buffer, fd: fd, url: url)
      if count == 0 { return }
      try onChunk(Data(buffer[0..<count]))
    }
  }

  /// Decodes `Transfer-Encoding: chunked`, starting with the bytes already in `pending`.
  private func readChunked(
    _ pending: inout [UInt8], _ buffer: inout [UInt8], fd: Int32, url: URL,
    onChunk: (Data) throws -> Void
  ) throws {
    func fill() throws {
      let count = try receive(&buffer, fd: fd, url: url)
      guard count > 0 else {
        throw GutendexError.connectionLost(url: url, reason: "closed inside a chunked body")
      }
      pending += buffer[0..<count]
    }
    func line() throws -> String {
      while true {
        if let index = pending.firstIndex(of: 0x0A) {
          let text = String(decoding: pending[0..<index], as: UTF8.self)
          pending.removeFirst(index + 1)
          return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if pending.count > 4096 {
          throw GutendexError.badData(url: url, path: "", reason: "bad chunk size line")
        }
        try fill()
      }
    }
    while true {
      let sizeText = try line().split(separator: ";").first.map(String.init) ?? ""
      guard let size = Int(sizeText, radix: 16), size >= 0 else {
        throw GutendexError.badData(url: url, path: "", reason: "bad chunk size '\(sizeText)'")
      }
      if size == 0 { return }
      var remaining = size
      while remaining > 0 {
        if pending.isEmpty { try fill() }
        let take = min(remaining, pending.count)
        try onChunk(Data(pending[0..<take]))
        pending.removeFirst(take)
        remaining -= take
      }
      _ = try line()
    }
  }

  private func connect(host: String, port: Int, url: URL, timeout: Duration) throws -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let name = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
    let status = getaddrinfo(name, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw GutendexError.unreachable(
        url: url, reason: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(list) }
    var failure = "no address"
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let info = next {
      next = info.pointee.ai_next
      let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
      guard fd >= 0 else { continue }
      let registered = state.withLock { state -> Bool in
        guard !state.cancelled else { return false }
        state.descriptor = fd
        return true
      }
      guard registered else {
        _ = Glibc.close(fd)
        throw GutendexError.cancelled(url: url)
      }
      // Linux bounds a blocking connect by the send timeout; reads get the same bound as a
      // backstop to the downloader's stall watch.
      let (seconds, attoseconds) = timeout.components
      var limit = timeval(
        tv_sec: Int(max(1, seconds)),
        tv_usec: seconds > 0 ? Int(attoseconds / 1_000_000_000_000) : 0)
      let size = socklen_t(MemoryLayout<timeval>.size)
      _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, size)
      _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, size)
      if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
        var on: Int32 = 1
        _ = setsockopt(
          fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
      }
      let code = errno
      failure = String(cString: strerror(code))
      close()
      if code == EINPROGRESS || code == EAGAIN || code == ETIMEDOUT {
        throw GutendexError.timedOut(url: url, after: timeout)
      }
      if isCancelled { throw GutendexError.cancelled(url: url) }
    }
    throw GutendexError.unreachable(url: url, reason: failure)
  }

  private func send(_ bytes: [UInt8], fd: Int32, url: URL) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw lost(url)
      }
      offset += written
    }
  }

  private func receive(_ buffer: inout [UInt8], fd: Int32, url: URL) throws -> Int {
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count >= 0 {
        if isCancelled { throw GutendexError.cancelled(url: url) }
        return count
      }
      if errno == EINTR { continue }
      throw lost(url)
    }
  }

  private func lost(_ url: URL) -> GutendexError {
    if isCancelled { return .cancelled(url: url) }
    if errno == EAGAIN || errno == EWOULDBLOCK {
      return .timedOut(url: url, after: .zero)
    }
    return .connectionLost(url: url, reason: String(cString: strerror(errno)))
  }

  static func endOfHead(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 3..<bytes.count
    where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A
      && bytes[index - 3] == 0x0D
    {
      return index + 1
    }
    return nil
  }

  static func parseHead(_ bytes: [UInt8], url: URL) throws -> StreamHead {
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.components(separatedBy: "\r\n")
    let statusLine = lines.removeFirst()
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
      throw GutendexError.badData(url: url, path: "", reason: "not an HTTP/1.x response")
    }
    var headers: [String: String] = [:]
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = headers[name].map { $0 + ", " + value } ?? value
    }
    return StreamHead(status: status, headers: headers, url: url)
  }
}
