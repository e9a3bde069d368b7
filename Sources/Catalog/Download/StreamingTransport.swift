import Foundation
import Gutendex

/// An HTTP exchange whose body is handed over piece by piece instead of collected, so a
/// download of any size needs only a chunk of memory. Redirects are never followed here: the
/// ``Downloader`` decides which ones are safe.
public protocol StreamingTransport: Sendable {
  /// Sends `request`; calls `onHead` once with the status and headers, and, if it answers
  /// ``StreamDisposition/receive``, `onChunk` with each piece of the body in order. Returns when
  /// the body is complete; throws a ``GutendexError`` when the exchange fails, or the error a
  /// callback threw (which stops the transfer).
  func stream(
    _ request: HTTPRequest, onHead: @escaping @Sendable (StreamHead) throws -> StreamDisposition,
    onChunk: @escaping @Sendable (Data) throws -> Void
  ) async throws
}

/// The status line and headers of a streamed response.
public struct StreamHead: Sendable, Hashable {
  /// The HTTP status.
  public var status: Int
  /// Headers with lower-cased names.
  public var headers: [String: String]
  /// The URL that answered.
  public var url: URL

  /// A head; header names are lower-cased here.
  public init(status: Int, headers: [String: String], url: URL) {
    self.status = status
    self.url = url
    var lowered: [String: String] = [:]
    for (name, value) in headers { lowered[name.lowercased()] = value }
    self.headers = lowered
  }

  /// The value of a header, by case-insensitive name.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }
}

/// What a ``StreamingTransport`` does with the body after the head.
public enum StreamDisposition: Sendable, Hashable {
  /// Deliver the body.
  case receive
  /// Drop the body and end the exchange (a redirect, an error page, a 416).
  case stop
}
