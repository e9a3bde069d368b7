import Foundation
import Gutendex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A downloaded text as `library search` reads it: the file mapped read-only, guarded like the
/// reader's mapping
/// (``MappingGuard``: a file cut short under the search reads as zeros instead of killing it),
/// and its encoding chosen as the reader chooses it, on the same first bytes.
final class SearchedText {
  /// The first byte, nil when there are none.
  let base: UnsafePointer<UInt8>?
  /// How many bytes there are.
  let count: Int
  /// UTF-8, or Windows-1252 for a Latin-1 text (``TextBytes/encoding(of:)``'s choice).
  let encoding: TextBytes.Encoding
  /// Where the bytes past ASCII are (each character's first byte), as choosing the encoding
  /// found them, up to ``highBytesEnd``: the search goes from one to the next without reading
  /// the ASCII between them again.
  let highBytes: [Int]
  /// The offset up to which ``highBytes`` holds every byte past ASCII.
  let highBytesEnd: Int
  /// The most positions kept in ``highBytes`` (past them, the search looks for itself).
  static let highBytesKept = 4096

  /// The regular file open at `descriptor`, `count` bytes long, mapped (the descriptor may be
  /// closed afterwards).
  init(descriptor: Int32, count: Int) throws {
    self.count = count
    guard count > 0 else {
      base = nil
      encoding = .utf8
      highBytes = []
      highBytesEnd = 0
      return
    }
    // Not MAP_POPULATE: filling every page at once took twice as long as the faults, which map
    // the pages around each one in the page cache (100 texts of 0.5 MB: 17 ms against 10 ms).
    guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
      address != MAP_FAILED
    else {
      let code = errno
      throw NSError(
        domain: NSPOSIXErrorDomain, code: Int(code),
        userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(code))])
    }
    MappingGuard.register(address, count: count)
    let start = UnsafePointer(address.assumingMemoryBound(to: UInt8.self))
    base = start
    let sniffed = Self.sniff(UnsafeBufferPointer(start: start, count: count))
    encoding = sniffed.encoding
    highBytes = sniffed.highBytes
    highBytesEnd = sniffed.end
  }

  deinit {
    guard let base else { return }
    MappingGuard.unregister(base)
    munmap(UnsafeMutableRawPointer(mutating: base), count)
  }

  /// The bytes in `range`.
  func buffer(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    guard let base, !range.isEmpty else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
  }

  /// Gives the pages in `range` back to the kernel (they stay in the page cache).
  func release(_ range: Range<Int>) {
    guard let base else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let start = (range.lowerBound / page) * page
    let end = (range.upperBound / page) * page
    guard end > start else { return }
    madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, Int32(MADV_DONTNEED))
  }

  /// ``TextBytes/encoding(of:)``, the same choice on the same bytes, with the stretches of
  /// ASCII between bytes past it skipped 32 bytes at a time (``TextScanner/nextHighByte``):
  /// this pass over the first 4 MiB of every text was as long as the search itself.
  static func encoding(of bytes: UnsafeBufferPointer<UInt8>) -> TextBytes.Encoding {
    sniff(bytes).encoding
  }

  /// ``encoding(of:)``, with where it met the bytes past ASCII (see ``highBytes``) and the
  /// offset up to which it met them all.
  private static func sniff(_ bytes: UnsafeBufferPointer<UInt8>) -> (
    encoding: TextBytes.Encoding, highBytes: [Int], end: Int
  ) {
    guard let base = bytes.baseAddress else { return (.utf8, [], 0) }
    var invalid = 0
    var multiByte = 0
    let end = min(bytes.count, TextBytes.encodingSample)
    var index = 0
    var high: [Int] = []
    var known = 0
    /// Notes the byte past ASCII at `index` while there is room; the list ends there otherwise.
    func note(_ index: Int) {
      guard high.count < highBytesKept else { return }
      high.append(index)
      known = index + 1
    }
    while index < end {
      let next = TextScanner.nextHighByte(base, from: index, to: end)
      if high.count < highBytesKept { known = next }
      index = next
      guard index < end else { break }
      let byte = base[index]
      note(index)
      if TextBytes.undefinedInWindows1252.contains(byte) { return (.utf8, high, known) }
      // The reader's own check of the sequence, so both choose the same encoding.
      guard let sequence = TextBytes.utf8Sequence(at: index, in: base, end: end) else { break }
      if sequence.valid {
        multiByte += 1
        index += sequence.length
      } else {
        invalid += 1
        index += 1
      }
      if high.count < highBytesKept { known = index }
    }
    if high.count < highBytesKept { known = max(known, index) }
    return (invalid > 0 && invalid > multiByte ? .windows1252 : .utf8, high, known)
  }

  /// ``BookText/notTextReason(_:encoding:)`` of the first bytes, answered at once for bytes
  /// that are all printable ASCII, tabs, line ends, form feeds or escapes (text, whatever the
  /// encoding: no NUL, nothing invalid, no other control character).
  static func notTextReason(_ start: UnsafeBufferPointer<UInt8>, encoding: TextBytes.Encoding)
    -> String?
  {
    let plain = start.allSatisfy { byte in
      (byte >= 0x20 && byte < 0x80) || byte == 0x09 || byte == 0x0A || byte == 0x0C
        || byte == 0x0D || byte == 0x1B
    }
    return plain ? nil : BookText.notTextReason(start, encoding: encoding)
  }
}
