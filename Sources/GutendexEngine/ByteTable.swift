#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Byte strings stored back to back, with substring search.
struct ByteTable: Sendable {
  private(set) var bytes: [UInt8] = []
  private(set) var offsets: [Int] = [0]

  mutating func append(_ entry: some Sequence<UInt8>) {
    bytes.append(contentsOf: entry)
    offsets.append(bytes.count)
  }

  var count: Int { offsets.count - 1 }

  /// Lower-cases like the server's case-insensitive match, with a fast path for ASCII.
  static func fold(_ string: String) -> [UInt8] {
    if string.utf8.allSatisfy({ $0 < 0x80 }) {
      return string.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
    return Array(string.lowercased().utf8)
  }

  /// True when entry `index` contains `needle` (the empty needle is in everything).
  func contains(_ needle: [UInt8], at index: Int) -> Bool {
    let start = offsets[index]
    let end = offsets[index + 1]
    let length = needle.count
    guard length > 0 else { return true }
    guard end - start >= length else { return false }
    return bytes.withUnsafeBufferPointer { hay in
      needle.withUnsafeBufferPointer { pin in
        guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return false }
        // memchr finds candidate first bytes fast; memcmp checks the rest.
        var cursor = base + start
        let last = base + (end - length)
        while cursor <= last {
          guard let found = memchr(cursor, Int32(pinBase[0]), last - cursor + 1) else {
            return false
          }
          let candidate = found.assumingMemoryBound(to: UInt8.self)
          if length == 1 || memcmp(candidate + 1, pinBase + 1, length - 1) == 0 { return true }
          cursor = UnsafePointer(candidate) + 1
        }
        return false
      }
    }
  }
}
