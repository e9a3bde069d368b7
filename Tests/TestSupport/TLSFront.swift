import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// https in front of a plain loopback port: `socat` terminates TLS with a
/// ``TestCertificateAuthority``'s server certificate and relays the bytes to the backend, one
/// forked socat per connection. A ``LoopbackServer`` behind it serves https unchanged, faults
/// included: a stall stays a stall, a close mid-body becomes a TLS close mid-body, a refused
/// backend a TLS connection closed without an answer.
///
/// socat runs in a session (and process group) of its own (`setsid`), so ``stop()`` reaches
/// the children it forked. It must be stopped (or released: `deinit` stops it too).
public final class TLSFront: Sendable {
  /// `https://127.0.0.1:<port>`.
  public let url: URL
  /// The port socat listens on.
  public let port: UInt16
  /// The plain port the bytes go to.
  public let backendPort: UInt16
  private let process: ChildProcess
  private let stopped = Mutex(false)

  private init(process: ChildProcess, port: UInt16, backendPort: UInt16) {
    self.process = process
    self.port = port
    self.backendPort = backendPort
    url = URL(string: "https://127.0.0.1:\(port)")!
  }

  /// Starts a front for `backend` (`http://127.0.0.1:<port>`) with `authority`'s server
  /// certificate, and returns once it accepts connections.
  public static func start(
    backend: URL, authority: TestCertificateAuthority
  ) async throws -> TLSFront {
    let backendPort = try HarnessFailure.unwrap(
      backend.port.flatMap { UInt16(exactly: $0) }, "no port in \(backend)")
    return try await start(backendPort: backendPort, authority: authority)
  }

  /// Starts a front for the plain port `backendPort` on 127.0.0.1.
  public static func start(
    backendPort: UInt16, authority: TestCertificateAuthority
  ) async throws -> TLSFront {
    let socat = try SystemTool.path("socat")
    let setsid = try SystemTool.path("setsid")
    var failures: [String] = []
    // socat cannot listen on port 0 and report the port, so the port is picked here; another
    // process can take it before socat binds, hence a few tries.
    for _ in 0..<5 {
      let port = try LoopbackSocket.freePort()
      let listen =
        "OPENSSL-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork,nodelay,"
        + "cert=\(authority.serverCertificatePath),key=\(authority.serverKeyPath),verify=0"
      // The child of posix_spawn is no process group leader, so setsid(1) calls setsid(2)
      // and execs socat under the same pid, which becomes the group's id.
      let process = try ChildProcess(
        executable: setsid,
        arguments: [socat, listen, "TCP:127.0.0.1:\(backendPort),nodelay"],
        environment: ["PATH": "/usr/bin:/bin"])
      process.closeInput()
      let front = TLSFront(process: process, port: port, backendPort: backendPort)
      if try await front.waitUntilAccepting() { return front }
      failures.append(String(decoding: process.stderr, as: UTF8.self))
      await front.stop()
    }
    throw HarnessFailure(description: "socat did not start: \(failures.joined(separator: "; "))")
  }

  /// Polls the port until socat accepts a connection (true) or exits (false); bounded, time
  /// the machine was starved of CPU not counted (socat is a child process: ``StarvedDeadline``).
  private func waitUntilAccepting() async throws -> Bool {
    let deadline = StarvedDeadline(Awaiting.standard)
    while !deadline.hasPassed {
      if processHasEnded { return false }
      // A plain connect is enough: socat accepts it (its fork then fails the handshake and
      // exits, which is logged on its stderr and harmless).
      if LoopbackSocket.accepts(port: port) { return true }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw HarnessFailure(
      description:
        "socat did not listen on \(port) within \(Awaiting.standard.components.seconds) s")
  }

  private var processHasEnded: Bool {
    // Once socat is reaped its pid is gone from /proc (a zombie still has a directory, but
    // its state is Z).
    guard let status = try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8)
    else { return true }
    let state = status.split(separator: ")").last?.split(separator: " ").first
    return state == "Z"
  }

  /// What socat wrote to standard error (its handshake errors, for a failing test's message).
  public var log: String { String(decoding: process.stderr, as: UTF8.self) }

  /// socat's pid (also its process group's id).
  public var processID: pid_t { process.pid }

  /// The pids socat forked (one per open connection), from `/proc`.
  public var connectionProcessIDs: [pid_t] {
    let path = "/proc/\(process.pid)/task/\(process.pid)/children"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }
  }

  /// Whether socat's pid still leads its own process group (setsid has run and it is unreaped).
  private var leadsItsGroup: Bool {
    getpgid(process.pid) == process.pid
  }

  /// Marks the front stopped; false when it already was.
  private func markStopped() -> Bool {
    stopped.withLock { stopped in
      defer { stopped = true }
      return !stopped
    }
  }

  /// Ends the connections first, so socat reaps its own children (the init process here does
  /// not reap orphans), then socat itself.
  private func endConnections(_ signal: Int32) {
    for pid in connectionProcessIDs { _ = kill(pid, signal) }
  }

  /// Signals what is left of socat's group; the group id cannot have been reused, since socat
  /// (its leader) is not reaped yet when this runs.
  private func signalGroup(_ signal: Int32) {
    if leadsItsGroup { _ = kill(-process.pid, signal) }
    process.kill(signal)
  }

  /// Stops socat and every connection it forked (SIGTERM, as a user would; ``ChildProcess``
  /// starts it with SIGTERM deliverable), and reaps it; SIGKILL only for a socat still
  /// running at the deadline.
  public func stop() async {
    guard markStopped() else { return }
    endConnections(SIGTERM)
    let deadline = ContinuousClock.now + .seconds(5)
    while !connectionProcessIDs.isEmpty, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    signalGroup(SIGTERM)
    _ = await process.wait(timeout: .seconds(10))
  }

  deinit {
    guard markStopped() else { return }
    // Only for a front released without stop(). No await in deinit: a bounded (1 s)
    // synchronous wait for the connections to end, so socat reaps them, then the kill;
    // ChildProcess's reaper thread reaps socat. SIGKILL, since nothing here can wait to see
    // a SIGTERM obeyed.
    endConnections(SIGKILL)
    for _ in 0..<500 where !connectionProcessIDs.isEmpty { usleep(2_000) }
    signalGroup(SIGKILL)
  }
}
