import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One of the catalogue's files read from start to end a piece at a time (the pending books,
/// the synced ids), so that reading it holds a piece and the current line, never the file.
/// Opened like every file the program names: without blocking, and only a regular file
/// (``RegularFile``).
struct FileReader {
  private let descriptor: Int32
  private var offset = 0
  /// How many bytes are read at a time.
  static let piece = 1 << 16

  /// The file at `path`, nil when there is none (or it is not a regular file: a FIFO is never
  /// read, as ``LocalCatalogueFiles`` reads its files).
  init?(path: String) {
    guard let descriptor = try? RegularFile.open(path, flags: O_RDONLY) else { return nil }
    self.descriptor = descriptor
  }

  /// Closes the file.
  func close() {
    SpillFile.close(descriptor)
  }

  /// The next piece (empty at the end, or when the file cannot be read any further).
  mutating func next(into bytes: inout [UInt8]) {
    bytes.removeAll(keepingCapacity: true)
    bytes.append(contentsOf: repeatElement(0, count: Self.piece))
    var got = 0
    while true {
      got = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, off_t(offset))
      }
      if got < 0, errno == EINTR { continue }
      break
    }
    let count = max(0, got)
    bytes.removeLast(Self.piece - count)
    offset += count
  }

  /// Calls `body` with each line (without its line break; empty lines too), in order; a last
  /// line with no break after it (cut short by a crash) is left out, as
  /// ``LocalCatalogueFiles/readPending()`` leaves it out.
  mutating func forEachLine(_ body: (ArraySlice<UInt8>) throws -> Void) rethrows {
    var piece: [UInt8] = []
    var line: [UInt8] = []
    while true {
      next(into: &piece)
      guard !piece.isEmpty else { return }
      var start = 0
      while let end = Self.lineBreak(in: piece, from: start) {
        if line.isEmpty {
          try body(piece[start..<end])
        } else {
          line.append(contentsOf: piece[start..<end])
          try body(line[...])
          line.removeAll(keepingCapacity: true)
        }
        start = end + 1
      }
      line.append(contentsOf: piece[start...])
    }
  }

  /// The index of the first line break in `bytes` at or after `start` (memchr: a call per
  /// byte would cost a sync of thousands of books a good part of its time).
  private static func lineBreak(in bytes: [UInt8], from start: Int) -> Int? {
    bytes.withUnsafeBytes { raw in
      guard start < raw.count, let base = raw.baseAddress,
        let found = memchr(base + start, 0x0A, raw.count - start)
      else { return nil }
      return UnsafeRawPointer(found) - base
    }
  }
}
