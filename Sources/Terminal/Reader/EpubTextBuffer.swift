#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The text an EPUB is turned into, written once, in reading order, into one stretch of
/// memory that never moves: address space for the largest text a book may be is reserved
/// up front (it costs nothing until written), so the start of the text can be read while the
/// rest is written after it, and the whole text is these same bytes, never a copy of the
/// documents joined (which held the book's text twice).
///
/// `@unchecked Sendable` is safe: only the converting thread writes, and only past ``count``;
/// the bytes below it are never written again, and a reader takes a prefix (``text(count:)``)
/// only of a count the writer published under ``EpubConversion``'s lock, after writing them.
final class EpubTextBuffer: @unchecked Sendable {
  /// The first byte of the reservation (nil when none could be made, or for no capacity).
  private let base: UnsafeMutablePointer<UInt8>?
  private let capacity: Int
  /// The bytes written.
  private(set) var count = 0

  /// Room for `capacity` bytes.
  init(capacity: Int) throws(EpubError) {
    self.capacity = capacity
    guard capacity > 0 else {
      base = nil
      return
    }
    let address = mmap(
      nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    guard let address, address != MAP_FAILED else {
      throw EpubError.tooLarge("the book's text", limit: capacity)
    }
    base = address.assumingMemoryBound(to: UInt8.self)
  }

  deinit {
    if let base { munmap(base, capacity) }
  }

  /// Writes `bytes` after the ones written; false (nothing written) when they do not fit.
  func append(_ bytes: some Collection<UInt8>) -> Bool {
    guard bytes.count <= capacity - count, let base else { return bytes.isEmpty }
    _ = UnsafeMutableBufferPointer(start: base + count, count: bytes.count).initialize(
      from: bytes)
    count += bytes.count
    return true
  }

  /// The first `count` bytes (written and published), as the reader's bytes; they keep this
  /// buffer alive.
  func text(count: Int) -> TextBytes {
    TextBytes(prefix: base.map { UnsafePointer($0) }, count: min(count, self.count), of: self)
  }
}
