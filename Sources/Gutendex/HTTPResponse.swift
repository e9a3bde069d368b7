import Foundation

/// One HTTP response as the transport returns it: status, headers and the whole body.
public struct HTTPResponse: Sendable, Hashable {
  /// The HTTP status code.
  public var status: Int
  /// Response headers with lower-cased names.
  public var headers: [String: String]
  /// The body, already bounded by the transport's size limit.
  public var body: Data
  /// The URL that was requested.
  public var url: URL

  /// A response with `status` from `url`.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data(), url: URL) {
    self.status = status
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    self.body = body
    self.url = url
  }

  /// The value of a header, looked up case-insensitively.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }

  /// The media type of the body without parameters, lower-cased (`application/json`).
  public var mediaType: String? {
    guard let value = header("content-type") else { return nil }
    let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
    return type.trimmingCharacters(in: .whitespaces).lowercased()
  }
}
