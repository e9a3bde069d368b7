import Foundation

/// One HTTP request as the transport sees it: method, absolute URL, headers and (for `PUT` and
/// `POST`) a body.
public struct HTTPRequest: Sendable, Hashable {
  /// The HTTP method, `GET` unless said otherwise.
  public var method: String
  /// The absolute URL, query included.
  public var url: URL
  /// Request headers; names are matched case-insensitively by transports.
  public var headers: [String: String]
  /// How long the transport may wait without receiving anything before giving up (connecting
  /// included; time spent waiting for the reader does not count).
  public var timeout: Duration
  /// The slowest the server may send, if there is a floor (see ``MinimumSpeed``).
  public var minimumSpeed: MinimumSpeed?
  /// The bytes sent after the head (a JSON document for a `PUT`), nil for none.
  public var body: Data?

  /// A request: GET, no headers, no body and a 15 s timeout unless given.
  public init(
    method: String = "GET", url: URL, headers: [String: String] = [:],
    timeout: Duration = .seconds(15), minimumSpeed: MinimumSpeed? = nil, body: Data? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.timeout = timeout
    self.minimumSpeed = minimumSpeed
    self.body = body
  }
}
