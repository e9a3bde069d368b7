import Foundation
import Gutendex
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A plain-HTTP/1.1 ``StreamingTransport`` over a blocking socket on a thread of its own: it
/// reads only as fast as the body is written to disk, so memory stays at one buffer whatever
/// the file size, and it copies each byte once (URLSession on Linux queues every piece libcurl
/// reads, without limit, when the disk is slower than the network). https goes to
/// ``URLSessionStreamingTransport`` (see ``DownloadTransport``).
public final class SocketStreamingTransport: StreamingTransport {
  /// Bytes read from the socket at a time.
  static let bufferSize = 256 * 1024
  /// The largest response head accepted.
  static let maxHeadSize = 64 * 1024

  /// A transport.
  public init() {}

  /// Streams `request` over a socket of its own (see ``StreamingTransport``).
  public func stream(
    _ request: HTTPRequest, onHead: @escaping @Sendable (StreamHead) throws -> StreamDisposition,
    onChunk: @escaping @Sendable (Data) throws -> Void
  ) async throws {
    let connection = SocketConnection()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let thread = Thread {
          do {
            try connection.exchange(request, onHead: onHead, onChunk: onChunk)
            continuation.resume()
          } catch {
            continuation.resume(throwing: error)
          }
          connection.close()
        }
        thread.stackSize = 1 << 20
        thread.start()
      }
    } onCancel: {
      connection.cancel()
    }
  }
}
