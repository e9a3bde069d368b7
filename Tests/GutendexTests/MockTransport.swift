import Foundation
import Gutendex
import Synchronization
import TestSupport

/// A scripted ``Requestable`` for client tests: answers from presets, records every request.
///
/// Thread-safe: all state lives in one `Mutex`, so concurrent attempts and abandoned tasks
/// (a timed-out request keeps running in the background) never race.
final class MockTransport: Requestable {
  /// One scripted answer.
  enum Step: Sendable {
    /// A response with this status, body and headers.
    case response(status: Int, body: Data, headers: [String: String])
    /// The transport throws this error.
    case failure(any Error)
    /// Never answers, but stops when its task is cancelled (like URLSession).
    case hang
    /// Never answers and ignores cancellation until ``release()`` (a stuck transport).
    case unresponsive

    /// A JSON response (`Content-Type: application/json`).
    static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Step {
      .response(
        status: status, body: Data(text.utf8),
        headers: headers.merging(["Content-Type": "application/json"]) { own, _ in own })
    }

    /// A response with a text body and exactly these headers.
    static func text(_ text: String, status: Int, headers: [String: String] = [:]) -> Step {
      .response(status: status, body: Data(text.utf8), headers: headers)
    }
  }

  /// Thrown when a `.sequence` mock is asked for more answers than it was given.
  struct Exhausted: Error, Equatable {
    var url: URL
  }

  /// Thrown by an `.unresponsive` step once released.
  struct Released: Error {}

  private struct State {
    var requests: [HTTPRequest] = []
    var steps: [Step] = []
    var parked: [CheckedContinuation<Void, Never>] = []
    var released = false
  }

  private let state = Mutex(State())
  private let script: @Sendable (HTTPRequest, Int) -> Step?

  /// A mock that answers request number `n` (0-based) with `script(request, n)`; nil means
  /// exhausted.
  init(script: @escaping @Sendable (HTTPRequest, Int) -> Step?) {
    self.script = script
  }

  /// Always the same response.
  static func success(
    status: Int = 200, body: String,
    headers: [String: String] = ["Content-Type": "application/json"]
  ) -> MockTransport {
    let step = Step.text(body, status: status, headers: headers)
    return MockTransport { _, _ in step }
  }

  /// Always the same response, with a binary body.
  static func success(
    status: Int = 200, body: Data, headers: [String: String] = ["Content-Type": "application/json"]
  ) -> MockTransport {
    let step = Step.response(status: status, body: body, headers: headers)
    return MockTransport { _, _ in step }
  }

  /// Always the same error.
  static func failing(_ error: any Error) -> MockTransport {
    MockTransport { _, _ in .failure(error) }
  }

  /// These answers in order, then ``Exhausted``.
  static func sequence(_ steps: [Step]) -> MockTransport {
    MockTransport { _, index in index < steps.count ? steps[index] : nil }
  }

  /// An answer chosen from the request (by URL, usually).
  static func routing(_ route: @escaping @Sendable (HTTPRequest) -> Step) -> MockTransport {
    MockTransport { request, _ in route(request) }
  }

  /// Every request received, in order.
  var requests: [HTTPRequest] { state.withLock { $0.requests } }

  /// The absolute URLs of every request received, in order.
  var urls: [String] { requests.map(\.url.absoluteString) }

  /// How many requests were received.
  var count: Int { state.withLock { $0.requests.count } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let index = state.withLock { state in
      state.requests.append(request)
      return state.requests.count - 1
    }
    guard let step = script(request, index) else { throw Exhausted(url: request.url) }
    switch step {
    case .response(let status, let body, let headers):
      return HTTPResponse(status: status, headers: headers, body: body, url: request.url)
    case .failure(let error):
      throw error
    case .hang:
      try await Task.sleep(for: .seconds(86_400))
      throw CancellationError()
    case .unresponsive:
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state in
          if state.released { return true }
          state.parked.append(continuation)
          return false
        }
        if resumeNow { continuation.resume() }
      }
      throw Released()
    }
  }

  /// Lets every `.unresponsive` request (now or later) finish, so no task is left behind.
  func release() {
    let parked = state.withLock { state in
      state.released = true
      defer { state.parked = [] }
      return state.parked
    }
    for continuation in parked { continuation.resume() }
  }

  /// Waits until `count` requests arrived (polling: the mock keeps no waiters); throws an
  /// `AwaitTimeout` if they have not by `Awaiting.standard`.
  func waitForRequests(_ count: Int, file: String = #fileID, line: Int = #line) async throws {
    try await Awaiting.condition(
      "\(count) requests to reach the mock", file: file, line: line
    ) { self.count >= count }
  }
}
