import FlyingSocks
import Foundation
import Gutendex
import Synchronization

/// A loopback HTTP/1.1 server that answers with any ``Requestable`` and misbehaves on demand.
///
/// It listens on 127.0.0.1 only, speaks keep-alive HTTP/1.1 (and 1.0), answers HEAD, serves
/// connections concurrently and refuses request heads over ``maxRequestHeadSize`` with 431.
/// Set ``faults`` at any time, also while running: each request reads the plan current when
/// it arrives.
public final class LoopbackServer: Sendable {
  /// The largest request line plus headers accepted; a larger head gets 431.
  public static let maxRequestHeadSize = 32 * 1024
  /// The largest request body read (and handed to the handler); a larger one gets 413.
  public static let maxRequestBodySize = 1_048_576
  /// ``requests`` keeps this many most recent targets, so a long-running server stays small.
  public static let maxLoggedRequests = 10_000

  /// What answers the requests that no fault intercepts.
  public let handler: any Requestable
  private let requestedPort: UInt16
  let state = Mutex(State())
  /// Where every task of the server runs: a thread of its own, so CPU-bound or blocking work
  /// elsewhere in the process (on the cooperative pool) cannot keep it from answering.
  private let executor = ThreadExecutor(name: "LoopbackServer")

  struct State {
    var faults = FaultPlan()
    var requests: [String] = []
    var requestCount = 0
    var connections = 0
    var bodyBytesSent = 0
    var starting = false
    var running: Running?
    /// Files mode: paths served as files, and paths answered with a redirect.
    var files: [String: ServedFile] = [:]
    var redirects: [String: Redirect] = [:]
    /// The `Range` header of each file request, in order (nil when there was none).
    var fileRanges: [String?] = []
    /// Every request files mode answered, in order (redirects included).
    var fileRequests: [FileRequest] = []
    /// The descriptors of the open connections, which ``stop()`` shuts down.
    var openSockets: Set<Int32> = []
    /// Set by ``stop()``: a connection accepted from now on is closed at once.
    var stopping = false
    /// The descriptors of the connections whose response is stalled now (a stall fault),
    /// which ``endStalls()`` shuts down.
    var stalledSockets: Set<Int32> = []
    /// Requests waiting for ``releaseHeld()`` (``FaultPlan/holdUntilReleased``).
    var held: [CheckedContinuation<Void, Never>] = []
  }

  struct Redirect: Sendable {
    var status: Int
    var location: String
  }

  struct Running: Sendable {
    var listener: Socket
    var port: UInt16
    /// Accepts and serves; ends once every connection has.
    var task: Task<Void, Never>
    /// The socket pool's loop.
    var loop: Task<Void, Never>
  }

  /// A server for `handler` on `port` (0 picks a free one when started).
  public init(handler: any Requestable, port: UInt16 = 0) {
    self.handler = handler
    self.requestedPort = port
  }

  /// The faults applied to the requests that arrive from now on.
  public var faults: FaultPlan {
    get { state.withLock { $0.faults } }
    set { state.withLock { $0.faults = newValue } }
  }

  /// How many requests arrived (faulted ones included).
  public var requestCount: Int { state.withLock { $0.requestCount } }

  /// The request targets received, in order (`/books/?page=2`); the most recent
  /// ``maxLoggedRequests`` only.
  public var requests: [String] { state.withLock { $0.requests } }

  /// How many connections were accepted: fewer than requests means keep-alive worked.
  public var connectionCount: Int { state.withLock { $0.connections } }

  /// Body bytes written to clients so far (headers not counted).
  public var bodyBytesSent: Int { state.withLock { $0.bodyBytesSent } }

  /// `http://127.0.0.1:<port>` while running.
  public var url: URL? {
    state.withLock { $0.running.flatMap { URL(string: "http://127.0.0.1:\($0.port)") } }
  }

  /// Starts listening and serving; returns `http://127.0.0.1:<port>`.
  public func start() async throws -> URL {
    try state.withLock { state throws(LoopbackServerError) in
      guard state.running == nil, !state.starting else { throw .alreadyRunning }
      state.starting = true
    }
    do {
      let running = try await listen()
      state.withLock {
        $0.running = running
        $0.starting = false
        $0.stopping = false
      }
      guard let url = URL(string: "http://127.0.0.1:\(running.port)") else {
        throw LoopbackServerError.socket("no URL for port \(running.port)")
      }
      return url
    } catch {
      state.withLock { $0.starting = false }
      throw error
    }
  }

  /// Stops accepting, ends every connection (stalled ones too) and waits until all are closed.
  public func stop() async {
    let running = state.withLock { state in
      defer { state.running = nil }
      return state.running
    }
    guard let running else { return }
    running.task.cancel()
    // FlyingSocks ends a cancelled wait for a socket from an unstructured task, which runs on
    // the cooperative pool, not on this server's thread: with that pool busy (tests running in
    // parallel) stopping would wait for it. Shutting the sockets down ends every wait through
    // the socket pool's own loop instead, here.
    _ = shutdown(running.listener.file.rawValue, Int32(SHUT_RDWR))
    state.withLock { state in
      state.stopping = true
      for socket in state.openSockets { _ = shutdown(socket, Int32(SHUT_RDWR)) }
    }
    // A held request would keep its connection, and so this wait, open for ever.
    releaseHeld()
    await running.task.value
    try? running.listener.close()
    // Not awaited, for the same reason: it ends once the pool gets to its cancellation.
    running.loop.cancel()
  }

  /// Drops a connection's descriptor from ``State/openSockets`` before it is closed.
  func forget(_ socket: Int32) {
    _ = state.withLock { $0.openSockets.remove(socket) }
  }

  private func listen() async throws -> Running {
    let pool: some AsyncSocketPool = .make()
    try await pool.prepare()
    let listener: Socket
    do {
      listener = try Socket(domain: AF_INET, type: .stream)
    } catch {
      throw LoopbackServerError.socket(String(describing: error))
    }
    do {
      try listener.setValue(true, for: .localAddressReuse)
      try listener.bind(to: .inet(ip4: "127.0.0.1", port: requestedPort))
    } catch {
      try? listener.close()
      throw LoopbackServerError.socket(String(describing: error))
    }
    let port: UInt16
    let asyncListener: AsyncSocket
    do {
      // `listen` closes the socket itself when it fails.
      try listener.listen(maxPendingConnection: 128)
    } catch {
      throw LoopbackServerError.socket(String(describing: error))
    }
    do {
      guard case .ip4(_, let boundPort) = try listener.sockname() else {
        throw LoopbackServerError.socket("not bound to IPv4")
      }
      port = boundPort
      asyncListener = try AsyncSocket(socket: listener, pool: pool)
    } catch {
      try? listener.close()
      throw LoopbackServerError.socket(String(describing: error))
    }
    // Child tasks (each connection) inherit the preference; so do the socket pool's actor and
    // the handler, which have no executor of their own.
    let loop = Task(executorPreference: executor) { _ = try? await pool.run() }
    let task = Task(executorPreference: executor) {
      await self.acceptConnections(on: asyncListener, port: port)
    }
    return Running(listener: listener, port: port, task: task, loop: loop)
  }

  private func acceptConnections(on listener: AsyncSocket, port: UInt16) async {
    await withDiscardingTaskGroup { group in
      while !Task.isCancelled {
        let client: AsyncSocket
        do {
          client = try await listener.accept()
        } catch {
          if Task.isCancelled { break }
          // Out of descriptors, say: back off instead of spinning.
          try? await Task.sleep(for: .milliseconds(10))
          continue
        }
        let stopping = state.withLock { state in
          state.connections += 1
          if !state.stopping { state.openSockets.insert(client.socket.file.rawValue) }
          return state.stopping
        }
        if stopping {
          try? client.close()
          break
        }
        try? client.socket.setValue(true, for: NoDelaySocketOption())
        group.addTask {
          var connection = Connection(server: self, socket: client, port: port)
          await connection.run()
        }
      }
    }
  }

  /// Logs a request and takes the fault plan for it, consuming one scripted response.
  func begin(_ target: String) -> (FaultPlan, ScriptedResponse?) {
    state.withLock { state in
      state.requestCount += 1
      state.requests.append(target)
      if state.requests.count > Self.maxLoggedRequests {
        state.requests.removeFirst(state.requests.count - Self.maxLoggedRequests)
      }
      if let remaining = state.faults.remainingRequests {
        guard remaining > 0 else {
          state.faults = .none
          return (.none, nil)
        }
        state.faults.remainingRequests = remaining - 1
      }
      let scripted =
        state.faults.statusScript.isEmpty ? nil : state.faults.statusScript.removeFirst()
      return (state.faults, scripted)
    }
  }

  func countBodyBytes(_ count: Int) {
    state.withLock { $0.bodyBytesSent += count }
  }
}
