import Foundation

/// The one narrow transport the client needs: send a request, get status, headers and body.
///
/// Production uses ``CurlTransport`` (libcurl), whose bodies stream with back-pressure through
/// ``open(_:)``; the local engine, the loopback server's handlers and test doubles answer whole
/// responses through ``send(_:)`` and get ``open(_:)`` for free. A transport does not follow
/// redirects (the caller decides which ones are safe), and throws ``GutendexError`` for
/// transport failures (unreachable, timeout, body too large, ...).
public protocol Requestable: Sendable {
  /// Sends one request and returns the whole response, whatever its status.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse

  /// Sends one request and returns as soon as the head is here; the body streams.
  func open(_ request: HTTPRequest) async throws -> StreamedResponse
}

extension Requestable {
  /// A whole response, streamed as one piece: what a transport that answers from memory needs.
  public func open(_ request: HTTPRequest) async throws -> StreamedResponse {
    StreamedResponse(try await send(request))
  }
}
