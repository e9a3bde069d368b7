import Foundation
import Gutendex

/// The transport downloads use: plain http on a socket of its own (loopback, http mirrors),
/// https through URLSession.
public final class DownloadTransport: StreamingTransport {
  private let plain = SocketStreamingTransport()
  private let secure = URLSessionStreamingTransport()

  /// A transport.
  public init() {}

  /// Streams `request` over a socket of its own (see ``StreamingTransport``).
  public func stream(
    _ request: HTTPRequest, onHead: @escaping @Sendable (StreamHead) throws -> StreamDisposition,
    onChunk: @escaping @Sendable (Data) throws -> Void
  ) async throws {
    if request.url.scheme?.lowercased() == "http" {
      try await plain.stream(request, onHead: onHead, onChunk: onChunk)
    } else {
      try await secure.stream(request, onHead: onHead, onChunk: onChunk)
    }
  }
}
