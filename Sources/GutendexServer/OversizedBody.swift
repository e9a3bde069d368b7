import Foundation

/// A huge response body, streamed in chunks so the server never builds it in memory.
public struct OversizedBody: Sendable, Hashable {
  /// How the client is told where the body ends.
  public enum Framing: String, Sendable, Hashable, CaseIterable {
    /// A `Content-Length` header announcing the full size.
    case contentLength = "length"
    /// `Transfer-Encoding: chunked`, no length up front.
    case chunked
    /// No length at all: the body ends when the server closes the connection.
    case closeDelimited = "close"
  }

  /// The body size in bytes.
  public var bytes: Int
  /// How the end of the body is signalled.
  public var framing: Framing

  /// A body of `bytes` bytes (negative counts as 0), framed as asked.
  public init(bytes: Int, framing: Framing = .contentLength) {
    self.bytes = max(0, bytes)
    self.framing = framing
  }

  /// A body of `megabytes` MiB.
  public static func megabytes(_ megabytes: Int, framing: Framing = .contentLength) -> Self {
    OversizedBody(bytes: megabytes * 1_048_576, framing: framing)
  }
}
