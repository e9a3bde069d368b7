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
/// The file is created when the buffer first fills: a spill that never holds more than its
/// buffer (a small index's section) stays in memory and costs no file. Reads see every byte
/// appended, written out or still buffered.
///
/// A value type holding a descriptor: copies share the file, and exactly one owner calls
/// ``close()`` (``StreamedIndex`` does, in a `defer`).
struct SpillFile: Sendable {
  /// The file's descriptor, nil while every byte is still in the buffer.
  private(set) var descriptor: Int32?
  /// Where the file is created.
  private let directory: URL
  /// Bytes appended so far (written out or still buffered).
  private(set) var size = 0
  /// Bytes written to the file (the rest, `size - written`, are in the buffer).
  private var written = 0
  /// The CRC-32 of the bytes written out; ``checksum`` adds the buffered ones.
  private var writtenChecksum: UInt32 = 0
  private var buffer: [UInt8] = []
  /// How many bytes are gathered before they are written.
  private let bufferSize: Int
  /// The buffer size of a spill that holds books or records (bulk bytes), and the most a copy
  /// reads at once.
  static let largeBuffer = 1 << 20

  /// A spill whose file, when it needs one, goes in `directory` (the data directory, which has
  /// room for the catalogue), with a write buffer of `bufferSize` bytes (an index writer keeps
  /// a spill per section, so theirs are small).
  init(in directory: URL, bufferSize: Int = SpillFile.largeBuffer) {
    self.directory = directory
    self.bufferSize = bufferSize
  }

  /// The CRC-32 of every byte appended (a section's checksum, computed as it is written).
  var checksum: UInt32 {
    buffer.withUnsafeBytes { CatalogueSnapshot.checksum($0, continuing: writtenChecksum) }
  }

  /// Appends `bytes`; returns the offset they start at.
  @discardableResult
  mutating func append(_ bytes: some Collection<UInt8>) throws(SyncFileError) -> Int {
    let offset = size
    buffer.append(contentsOf: bytes)
    size += bytes.count
    if buffer.count >= bufferSize { try flush() }
    return offset
  }

  /// Appends `value` as 4 little-endian bytes.
  mutating func append32(_ value: UInt32) throws(SyncFileError) {
    withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
    size += 4
    if buffer.count >= bufferSize { try flush() }
  }

  /// Appends the raw bytes of `values` (fixed-width numbers in this machine's order: for
  /// bytes this process alone reads back, such as a sorter's runs).
  mutating func appendRaw<Element: BitwiseCopyable>(_ values: [Element]) throws(SyncFileError) {
    values.withUnsafeBytes { buffer.append(contentsOf: $0) }
    size += values.count * MemoryLayout<Element>.stride
    if buffer.count >= bufferSize { try flush() }
  }

  /// Writes the buffered bytes to the file (created now if need be).
  mutating func flush() throws(SyncFileError) {
    guard !buffer.isEmpty else { return }
    let descriptor = try fileDescriptor()
    writtenChecksum = buffer.withUnsafeBytes {
      CatalogueSnapshot.checksum($0, continuing: writtenChecksum)
    }
    try Self.writeAll(descriptor, buffer, what: "a temporary file")
    written += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }

  /// Creates the file now (a spill that must fail early when its directory cannot hold it).
  mutating func create() throws(SyncFileError) {
    _ = try fileDescriptor()
  }

  private mutating func fileDescriptor() throws(SyncFileError) -> Int32 {
    if let descriptor { return descriptor }
    let path = directory.appendingPathComponent(
      ".spill-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    ).path
    let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard created >= 0 else { throw .system("cannot create \(path)", errno) }
    unlink(path)
    descriptor = created
    return created
  }

  /// `count` bytes from `offset`.
  func read(at offset: Int, count: Int, into bytes: inout [UInt8]) throws(SyncFileError) {
    bytes.removeAll(keepingCapacity: true)
    bytes.append(contentsOf: repeatElement(0, count: count))
    try bytes.withMutableFileBytes { (target) throws(SyncFileError) in
      try read(at: offset, into: target)
    }
  }

  /// Fills `target` with the bytes from `offset`.
  func read(at offset: Int, into target: UnsafeMutableRawBufferPointer) throws(SyncFileError) {
    guard let base = target.baseAddress, !target.isEmpty else { return }
    guard offset >= 0, offset + target.count <= size else {
      throw .system("cannot read past the end of a temporary file", EIO)
    }
    // The part already written comes from the file, the rest from the buffer.
    var done = 0
    let fromFile = max(0, min(target.count, written - offset))
    while done < fromFile, let descriptor {
      let got = pread(descriptor, base + done, fromFile - done, off_t(offset + done))
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { throw .system("cannot read a temporary file", got < 0 ? errno : EIO) }
      done += got
    }
    guard done == fromFile else { throw .system("cannot read a temporary file", EIO) }
    if done < target.count {
      buffer.withUnsafeBytes { source in
        let start = offset + done - written
        (base + done).copyMemory(
          from: source.baseAddress! + start, byteCount: target.count - done)
      }
    }
  }

  /// Copies every byte to `target`, which is written at its current position.
  func copy(to target: Int32) throws(SyncFileError) {
    var chunk: [UInt8] = []
    var offset = 0
    while offset < size {
      let count = min(Self.largeBuffer, size - offset)
      try read(at: offset, count: count, into: &chunk)
      try Self.writeAll(target, chunk, what: "the new index")
      offset += count
    }
  }

  /// Calls `body` with every byte, in order, at most a megabyte at a time (the same array,
  /// refilled).
  func forEachPiece(_ body: ([UInt8]) throws -> Void) throws {
    var chunk: [UInt8] = []
    var offset = 0
    while offset < size {
      let count = min(Self.largeBuffer, size - offset)
      try read(at: offset, count: count, into: &chunk)
      try body(chunk)
      offset += count
    }
  }

  /// Closes the file (its space is freed); the spill is not used after.
  func close() {
    if let descriptor { Self.close(descriptor) }
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
    try bytes.withFileBytes { (raw) throws(SyncFileError) in
      try writeAll(descriptor, raw, what: what)
    }
  }

  /// Writes all of `bytes` to `descriptor` at its current position.
  static func writeAll(
    _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, what: String
  ) throws(SyncFileError) {
    var done = 0
    while done < bytes.count {
      let wrote = AtomicFile.systemWrite(descriptor, bytes.baseAddress! + done, bytes.count - done)
      if wrote < 0, errno == EINTR { continue }
      guard wrote > 0 else { throw .system("cannot write \(what)", wrote < 0 ? errno : ENOSPC) }
      done += wrote
    }
  }
}
