import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Searches one file for folded words by pieces: it is read into a fixed buffer a few
/// megabytes at a time, never whole, so memory stays bounded whatever the file's size or line
/// lengths. The encoding and the "not text" test are the reader's (``TextBytes/encoding(of:)``,
/// ``BookText/notTextReason(_:encoding:)``), made on the same first bytes.
final class TextScanner {
  /// Bytes read at a time: as many as the reader looks at to choose the encoding.
  static let bufferSize = TextBytes.encodingSample

  /// What a scan found out about the file.
  enum Outcome: Equatable {
    /// Searched (to its end, or until told to stop).
    case searched
    /// Not text, and why (as the reader says it).
    case notText(String)
  }

  private let folding: TextFolding
  private let needle: [UInt8]
  private let buffer: UnsafeMutablePointer<UInt8>
  private let capacity: Int
  /// The encoding of the file being scanned.
  private(set) var encoding = TextBytes.Encoding.utf8

  /// A scanner for `needle` (folded by `folding`); one buffer, reused for every file.
  init(needle: [UInt8], folding: TextFolding, bufferSize: Int = TextScanner.bufferSize) {
    self.needle = needle
    self.folding = folding
    capacity = max(bufferSize, needle.count * 8 + 1024)
    buffer = .allocate(capacity: capacity)
  }

  deinit {
    buffer.deallocate()
  }

  /// How far before a forced cut (a line longer than the buffer) a match may start and still
  /// be found whole: a folded byte comes from at most four bytes, plus room for spaces that
  /// folding collapses.
  private var overlap: Int { needle.count * 4 + 256 }

  /// Reads into the buffer after its first `count` bytes until it is full or the file ends;
  /// true at the end of the file.
  private func fill(_ descriptor: Int32, count: inout Int) throws -> Bool {
    while count < capacity {
      let got = read(descriptor, buffer + count, capacity - count)
      if got < 0 {
        if errno == EINTR { continue }
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
      if got == 0 { return true }
      count += got
    }
    return false
  }

  /// Calls `found` with the file bytes of the first match on each line, in order, until the
  /// end of the file or until `found` returns false.
  func scan(_ descriptor: Int32, found: (Range<Int>) -> Bool) throws -> Outcome {
    var count = 0
    var atEnd = try fill(descriptor, count: &count)
    let all = UnsafeBufferPointer(start: buffer, count: count)
    encoding = TextBytes.encoding(of: all)
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let origin = count >= 3 && (0..<3).allSatisfy { buffer[$0] == bom[$0] } ? 3 : 0
    let sample = UnsafeBufferPointer(
      rebasing: all[origin..<min(count, origin + 8192)])
    if let reason = BookText.notTextReason(sample, encoding: encoding) {
      return .notText(reason)
    }
    var bufferStart = 0
    var begin = origin
    var skipLine = false
    while begin < count || !atEnd {
      // Up to the last line end; a line longer than the buffer is cut `overlap` bytes before
      // the buffer's end, and what is folded goes on to the end so a match across the cut is
      // found whole.
      var end = count
      var foldEnd = count
      if !atEnd {
        var last = count - 1
        while last >= begin, buffer[last] != 0x0A, buffer[last] != 0x0D { last -= 1 }
        if last >= begin {
          end = last + 1
          foldEnd = end
        } else {
          end = max(begin + 1, count - overlap)
          while end > begin + 1, buffer[end] & 0xC0 == 0x80 { end -= 1 }
        }
      }
      let folded = folding.fold(
        UnsafeBufferPointer(start: buffer + begin, count: foldEnd - begin),
        base: bufferStart + begin, encoding: encoding)
      var from = 0
      if skipLine {
        if let lineEnd = folded.lineEnd(from: 0) {
          from = lineEnd
          skipLine = false
        } else {
          from = folded.bytes.count
        }
      }
      while let match = folded.find(needle, from: from) {
        let start = folded.fileOffset(ofStart: match.lowerBound)
        // Past the cut: found again, whole, in the next piece.
        if start >= bufferStart + end { break }
        if !found(start..<folded.fileOffset(ofEnd: match.upperBound)) { return .searched }
        // One match per line: the next is looked for after this line's end.
        guard let lineEnd = folded.lineEnd(from: match.upperBound) else {
          skipLine = true
          break
        }
        from = lineEnd
      }
      if atEnd { break }
      // The rest of the buffer moves to its start, and more is read after it.
      let rest = count - end
      if rest > 0 { memmove(buffer, buffer + end, rest) }
      bufferStart += end
      count = rest
      begin = 0
      atEnd = try fill(descriptor, count: &count)
    }
    return .searched
  }
}
