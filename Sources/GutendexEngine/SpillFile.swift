import CZlib
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary file with no name: created in a directory and unlinked at once, so whatever
/// ends the process (an error, Ctrl-C, `kill -9`) leaves nothing behind; the space is freed when
/// the descriptor closes. Bytes are appended through a buffer and read back with `pread`, so
/// what it holds stays in the kernel's page cache, not in the process's memory.
///
/// A value type holding a descriptor: copies share the file, and exactly one owner calls
/// ``close()`` (``StreamedIndex`` does, in a `defer`).
struct SpillFile: Sendable {
  let descriptor: Int32
  /// Bytes appended so far (flushed or still buffered).
  private(set) var size = 0
  /// The CRC-32 of every byte appended (a section's checksum, computed as it is written).
  private(set) var checksum = UInt32(crc32(0, nil, 0))
  private var buffer: [UInt8] = []
  private static let bufferSize = 1 << 20

  /// Creates the file in `directory` (the data directory, which has room for the catalogue).
  init(in directory: URL) throws(SyncFileError) {
    let path = directory.appendingPathComponent(
      ".spill-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    ).path
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .system("cannot create \(path)", errno) }
    unlink(path)
    self.descriptor = descriptor
    buffer.reserveCapacity(Self.bufferSize)
  }

  /// Appends `bytes`; returns the offset they start at.
  @discardableResult
  mutating func append(_ bytes: some Collection<UInt8>) throws(SyncFileError) -> Int {
    let offset = size
    buffer.append(contentsOf: bytes)
    size += bytes.count
    if buffer.count >= Self.bufferSize { try flush() }
    return offset
  }

  /// Writes the buffered bytes to the file (and into the checksum).
  mutating func flush() throws(SyncFileError) {
    guard !buffer.isEmpty else { return }
    checksum = buffer.withUnsafeBytes { CatalogueSnapshot.checksum($0, continuing: checksum) }
    try Self.writeAll(descriptor, buffer, what: "a temporary file")
    buffer.removeAll(keepingCapacity: true)
  }

  /// `count` bytes from `offset` (flushed bytes only).
  func read(at offset: Int, count: Int, into bytes: inout [UInt8]) throws(SyncFileError) {
    bytes.removeAll(keepingCapacity: true)
    bytes.append(contentsOf: repeatElement(0, count: count))
    var done = 0
    while done < count {
      let got = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done))
      }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { throw .system("cannot read a temporary file", got < 0 ? errno : EIO) }
      done += got
    }
  }

  /// Copies the whole file (flushed) to `target`, which is written at its current position.
  func copy(to target: Int32) throws(SyncFileError) {
    var chunk: [UInt8] = []
    var offset = 0
    while offset < size {
      let count = min(Self.bufferSize, size - offset)
      try read(at: offset, count: count, into: &chunk)
      try Self.writeAll(target, chunk, what: "the new index")
      offset += count
    }
  }

  func close() {
    Self.close(descriptor)
  }

  /// The system's `close(2)` (the name `close` is taken inside these types).
  static func close(_ descriptor: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }

  /// Writes all of `bytes` to `descriptor` at its current position.
  static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], what: String) throws(SyncFileError) {
    var done = 0
    while done < bytes.count {
      let wrote = bytes.withUnsafeBytes {
        AtomicFile.systemWrite(descriptor, $0.baseAddress! + done, bytes.count - done)
      }
      if wrote < 0, errno == EINTR { continue }
      guard wrote > 0 else { throw .system("cannot write \(what)", wrote < 0 ? errno : ENOSPC) }
      done += wrote
    }
  }
}
