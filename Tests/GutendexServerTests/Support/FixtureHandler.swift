import Foundation
import Gutendex
import GutendexServer
import Synchronization
import TestSupport
import Testing

/// A handler made of a closure, standing in for the engine.
struct ClosureHandler: Requestable {
  let respond: @Sendable (HTTPRequest) async throws -> HTTPResponse

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await respond(request)
  }
}

/// Recorded gutendex.com pages (kept once in `TestSupport`).
enum Fixtures {
  static func data(_ name: String) throws -> Data {
    try FixtureFiles.recording(name)
  }

  /// gutendex.com page 1 (era E4).
  static func page1() throws -> Data { try data("e4-2025-page1") }
  /// gutendex.com page 10 (era E2).
  static func page10() throws -> Data { try data("e2-2022-page10") }

  /// Serves `/books/` (page 1, or page 10 when `page=10`), 301s `/old/books/` to `/books/`
  /// with a relative Location, and answers 404 `{"detail": "Not found."}` to anything else.
  static func handler() throws -> ClosureHandler {
    let page1 = try page1()
    let page10 = try page10()
    return ClosureHandler { request in
      let json = ["Content-Type": "application/json"]
      // `URL.path` drops a trailing slash on Linux; compare without it.
      var path = request.url.path(percentEncoded: true)
      while path.hasSuffix("/") { path.removeLast() }
      switch path {
      case "/books":
        let body = request.url.query?.contains("page=10") == true ? page10 : page1
        return HTTPResponse(status: 200, headers: json, body: body, url: request.url)
      case "/old/books":
        return HTTPResponse(status: 301, headers: ["Location": "/books/"], url: request.url)
      default:
        return HTTPResponse(
          status: 404, headers: json, body: Data(#"{"detail":"Not found."}"#.utf8),
          url: request.url)
      }
    }
  }
}

/// Runs `body` against a started fixture server, and always stops it.
func withServer<T>(
  faults: FaultPlan = .none, handler: (any Requestable)? = nil,
  _ body: (LoopbackServer, URL) async throws -> T
) async throws -> T {
  let server = LoopbackServer(handler: try handler ?? Fixtures.handler())
  server.faults = faults
  let url = try await server.start()
  do {
    let result = try await body(server, url)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// A client for `server` over the production transport, retrying without real pauses.
///
/// The default deadline is generous: for an API page it is a whole-request deadline, and on a
/// loaded 2-core machine a loopback page can take tens of seconds. Tests of the deadline itself
/// pass a short one.
func makeClient(
  _ server: URL, transport: CurlTransport = CurlTransport(),
  timeout: Duration = .seconds(120), attempts: Int = 3,
  sleep: @escaping @Sendable (Duration) async throws -> Void = { _ in }
) -> GutendexClient {
  GutendexClient(
    server: server, transport: transport, retry: RetryPolicy(maxAttempts: attempts),
    timeout: timeout, sleep: sleep, random: { 0.5 })
}

/// The error an operation failed with, or nil if it succeeded.
func failure<T>(_ operation: () async throws -> T) async -> GutendexError? {
  do {
    _ = try await operation()
    return nil
  } catch let error as GutendexError {
    return error
  } catch {
    Issue.record("not a GutendexError: \(error)")
    return nil
  }
}

extension GutendexError {
  /// The case name, for readable expectations.
  var kind: String {
    switch self {
    case .unreachable: "unreachable"
    case .connectionLost: "connectionLost"
    case .timedOut: "timedOut"
    case .tooSlow: "tooSlow"
    case .cancelled: "cancelled"
    case .http: "http"
    case .rateLimited: "rateLimited"
    case .serverError: "serverError"
    case .badData: "badData"
    case .bodyTooLarge: "bodyTooLarge"
    case .redirectRefused: "redirectRefused"
    case .invalidRequest: "invalidRequest"
    }
  }
}

/// Collects values from concurrent code (sleeps the client asked for, say).
final class Recorder<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])

  func append(_ value: Value) {
    values.withLock { $0.append(value) }
  }

  var all: [Value] { values.withLock { $0 } }
}
