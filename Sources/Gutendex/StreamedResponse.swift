import Foundation

/// A response whose head has arrived and whose body streams (see ``HTTPBody``).
public struct StreamedResponse: Sendable {
  /// The HTTP status code.
  public var status: Int
  /// Response headers with lower-cased names.
  public var headers: [String: String]
  /// The URL that was requested.
  public var url: URL
  /// The body, read once.
  public var body: HTTPBody

  /// A response with `status` from `url`; header names are lower-cased here.
  public init(status: Int, headers: [String: String], url: URL, body: HTTPBody) {
    self.status = status
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    self.url = url
    self.body = body
  }

  /// A whole response, streamed as one piece.
  public init(_ response: HTTPResponse) {
    self.init(
      status: response.status, headers: response.headers, url: response.url,
      body: HTTPBody(response.body))
  }

  /// The value of a header, looked up case-insensitively.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }

  /// The whole response, the body read up to `limit` bytes (see ``HTTPBody/collect(upTo:orThrow:)``).
  public func collected(limit: Int) async throws -> HTTPResponse {
    let data = try await body.collect(
      upTo: limit, orThrow: GutendexError.bodyTooLarge(url: url, limit: limit))
    return HTTPResponse(status: status, headers: headers, body: data, url: url)
  }
}
