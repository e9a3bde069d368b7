import Foundation
import Synchronization

/// A response body that arrives piece by piece, read once, at the pace its reader asks for it.
///
/// A transport hands out pieces only as fast as ``makeAsyncIterator()``'s `next()` takes them:
/// the network transport stops reading the socket while a reader (a parser, a disk) is busy, so
/// memory stays bounded whatever the body's size. A reader that stops early calls ``cancel()``
/// (dropping the body does too), which ends the transfer at once.
public struct HTTPBody: AsyncSequence, Sendable {
  /// A piece of the body.
  public typealias Element = Data

  /// The length the server announced (`Content-Length`), when it did.
  public let length: Int64?
  private let source: any Source

  /// What produces the pieces: a transfer in progress, or bytes already in memory.
  package protocol Source: Sendable {
    /// The next piece, or nil at the end; throws the transfer's failure.
    func next() async throws -> Data?
    /// Stops the transfer; later calls to `next` end the body.
    func cancel()
  }

  /// A body made of `data`, all of it already here.
  public init(_ data: Data) {
    length = Int64(data.count)
    source = Whole(data: data)
  }

  /// A body whose pieces come from `source`.
  package init(length: Int64?, source: any Source) {
    self.length = length
    self.source = source
  }

  /// Stops the transfer: nothing more is read from the network.
  public func cancel() {
    source.cancel()
  }

  /// An iterator over the pieces, in order.
  public func makeAsyncIterator() -> Iterator {
    Iterator(source: source)
  }

  /// Reads the pieces in order.
  public struct Iterator: AsyncIteratorProtocol {
    let source: any Source

    /// The next piece, or nil at the end of the body.
    public mutating func next() async throws -> Data? {
      try await source.next()
    }
  }

  /// Collects the whole body, refusing it as soon as it is known to be larger than `limit`
  /// bytes (announced or received), in which case the transfer is stopped and `tooLarge` thrown.
  public func collect(
    upTo limit: Int, orThrow tooLarge: @autoclosure () -> any Error
  ) async throws -> Data {
    if let length, length > Int64(limit) {
      cancel()
      throw tooLarge()
    }
    var data = Data()
    if let length { data.reserveCapacity(Int(length)) }
    for try await piece in self {
      guard data.count + piece.count <= limit else {
        cancel()
        throw tooLarge()
      }
      data.append(piece)
    }
    return data
  }

  /// Bytes already in memory, handed over in one piece.
  private final class Whole: Source {
    private let data: Mutex<Data?>

    init(data: Data) {
      self.data = Mutex(data)
    }

    func next() async throws -> Data? {
      data.withLock { data in
        defer { data = nil }
        return data?.isEmpty == true ? nil : data
      }
    }

    func cancel() {
      data.withLock { $0 = nil }
    }
  }
}
