import Foundation

/// The one narrow transport the client needs: send a request, get status, headers and body.
///
/// Production uses ``URLSessionTransport``; tests use closures, the local engine, or a loopback
/// server. A transport does not follow redirects (the client decides which ones are safe), and
/// throws ``GutendexError`` for transport failures (unreachable, timeout, body too large, ...).
public protocol Requestable: Sendable {
  /// Sends one request and returns the response, whatever its status.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
