import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A small SMTP server on 127.0.0.1 for `send --to mail:`: EHLO (with `AUTH PLAIN LOGIN` and
/// `SIZE`), AUTH PLAIN and LOGIN, MAIL FROM (refused with 552 past ``maxSize``), RCPT TO
/// (refused with 550 for ``refusedRecipients``), DATA, RSET, NOOP, QUIT. Each connection is
/// served on a thread of its own; delivered messages are kept whole.
public final class SMTPDouble: Sendable {
  /// A delivered message.
  public struct Delivery: Sendable {
    /// The MAIL FROM address.
    public var from: String
    /// The RCPT TO addresses.
    public var recipients: [String]
    /// The message as received (dot-stuffing undone).
    public var data: Data
  }

  struct State {
    var deliveries: [Delivery] = []
    var logins: [String] = []
  }

  /// The user and password it takes; nil: no login needed.
  public let login: (user: String, password: String)?
  /// Recipients refused at RCPT TO.
  public let refusedRecipients: Set<String>
  /// The largest message taken (announced in EHLO as SIZE).
  public let maxSize: Int
  private let state = Mutex(State())
  private let listener: Int32
  /// The port it listens on.
  public let port: UInt16

  /// Starts listening on an ephemeral port of 127.0.0.1.
  public init(
    login: (user: String, password: String)? = nil, refusedRecipients: Set<String> = [],
    maxSize: Int = 50_000_000
  ) throws {
    self.login = login
    self.refusedRecipients = refusedRecipients
    self.maxSize = maxSize
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw HarnessFailure(description: "socket: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socket, 16) == 0 else {
      throw HarnessFailure(description: "bind: \(errno)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    listener = socket
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "SMTPDouble"
    thread.start()
  }

  /// `smtp://127.0.0.1:PORT`.
  public var url: URL { URL(string: "smtp://127.0.0.1:\(port)")! }

  /// Every message delivered so far.
  public var deliveries: [Delivery] { state.withLock { $0.deliveries } }

  /// Stops listening (connections in progress end with their client).
  public func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      let thread = Thread { [self] in serve(client) }
      thread.start()
    }
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    var buffer: [UInt8] = []
    func send(_ line: String) {
      let bytes = Array((line + "\r\n").utf8)
      _ = bytes.withUnsafeBytes { Glibc.write(client, $0.baseAddress, $0.count) }
    }
    func readLine() -> String? {
      while true {
        if let end = buffer.firstIndex(of: 0x0A) {
          var line = Array(buffer[..<end])
          buffer.removeFirst(end + 1)
          if line.last == 0x0D { line.removeLast() }
          return String(decoding: line, as: UTF8.self)
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(client, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        buffer += chunk[..<count]
      }
    }
    send("220 127.0.0.1 test ESMTP")
    var from: String?
    var recipients: [String] = []
    var authenticated = login == nil
    func address(_ line: String) -> String {
      guard let open = line.firstIndex(of: "<"), let close = line.firstIndex(of: ">") else {
        return ""
      }
      return String(line[line.index(after: open)..<close])
    }
    func check(_ plain: String) -> Bool {
      guard let data = Data(base64Encoded: plain) else { return false }
      let parts = data.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      return parts.count == 3 && parts[1] == login?.user && parts[2] == login?.password
    }
    while let line = readLine() {
      let upper = line.uppercased()
      if upper.hasPrefix("EHLO") || upper.hasPrefix("HELO") {
        send("250-127.0.0.1")
        if login != nil { send("250-AUTH PLAIN LOGIN") }
        send("250 SIZE \(maxSize)")
      } else if upper.hasPrefix("AUTH PLAIN") {
        let initial = line.split(separator: " ").dropFirst(2).first.map(String.init)
        var response = initial
        if response == nil {
          send("334 ")
          response = readLine()
        }
        authenticated = check(response ?? "")
        send(authenticated ? "235 2.7.0 ok" : "535 5.7.8 authentication failed")
      } else if upper.hasPrefix("AUTH LOGIN") {
        send("334 VXNlcm5hbWU6")
        let user = readLine().flatMap { Data(base64Encoded: $0) }.map {
          String(decoding: $0, as: UTF8.self)
        }
        send("334 UGFzc3dvcmQ6")
        let password = readLine().flatMap { Data(base64Encoded: $0) }.map {
          String(decoding: $0, as: UTF8.self)
        }
        authenticated = user == login?.user && password == login?.password
        send(authenticated ? "235 2.7.0 ok" : "535 5.7.8 authentication failed")
      } else if upper.hasPrefix("MAIL FROM") {
        guard authenticated else {
          send("530 5.7.0 authentication required")
          continue
        }
        if let size = upper.range(of: "SIZE=").map({
          Int(upper[$0.upperBound...].prefix { $0.isNumber }) ?? 0
        }),
          size > maxSize
        {
          send("552 5.3.4 message size exceeds fixed limit")
          continue
        }
        from = address(line)
        recipients = []
        send("250 2.1.0 ok")
      } else if upper.hasPrefix("RCPT TO") {
        let recipient = address(line)
        if refusedRecipients.contains(recipient) {
          send("550 5.1.1 no such user")
        } else {
          recipients.append(recipient)
          send("250 2.1.5 ok")
        }
      } else if upper == "DATA" {
        guard from != nil, !recipients.isEmpty else {
          send("503 5.5.1 bad sequence")
          continue
        }
        send("354 end with <CRLF>.<CRLF>")
        var data = Data()
        while let body = readLine(), body != "." {
          let unstuffed = body.hasPrefix(".") ? String(body.dropFirst()) : body
          data.append(Data((unstuffed + "\r\n").utf8))
        }
        if data.count > maxSize {
          send("552 5.3.4 message too big")
          continue
        }
        let delivery = Delivery(from: from ?? "", recipients: recipients, data: data)
        state.withLock { $0.deliveries.append(delivery) }
        send("250 2.0.0 queued")
      } else if upper == "RSET" || upper == "NOOP" {
        send("250 2.0.0 ok")
      } else if upper == "QUIT" {
        send("221 2.0.0 bye")
        return
      } else {
        send("502 5.5.2 not implemented")
      }
    }
  }
}
