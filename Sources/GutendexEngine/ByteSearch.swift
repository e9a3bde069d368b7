#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Substring search over byte strings stored back to back (titles, names, subjects).
enum ByteSearch {
  /// A flag per entry: does entry `i` (bytes `offset(i)..<offset(i + 1)` of `bytes`) contain
  /// `needle`? The empty needle is in everything.
  ///
  /// One pass over the whole table with memchr and memcmp, instead of a search per entry: the
  /// cost is the table's size, not the number of entries. `offset` must not decrease; values past
  /// the end of `bytes` are treated as its end, so a damaged table cannot lead outside it.
  static func entries(
    containing needle: [UInt8], in bytes: UnsafeRawBufferPointer, count: Int,
    offset: (Int) -> Int
  ) -> [Bool] {
    var flags = [Bool](repeating: needle.isEmpty, count: count)
    guard !needle.isEmpty, count > 0, let base = bytes.baseAddress else { return flags }
    let total = bytes.count
    func end(_ entry: Int) -> Int { min(offset(entry + 1), total) }
    needle.withUnsafeBytes { pin in
      guard let pinBase = pin.baseAddress else { return }
      let first = Int32(pin[0])
      let length = pin.count
      var cursor = min(offset(0), total)
      var entry = 0
      while cursor + length <= total {
        guard let found = memchr(base + cursor, first, total - length - cursor + 1) else { return }
        let at = UnsafeRawPointer(found) - base
        while entry < count, end(entry) <= at { entry += 1 }
        guard entry < count else { return }
        if at + length <= end(entry), length == 1 || memcmp(found + 1, pinBase + 1, length - 1) == 0
        {
          flags[entry] = true
          // The entry matches; the rest of it need not be searched.
          cursor = end(entry)
          entry += 1
        } else {
          cursor = at + 1
        }
      }
    }
    return flags
  }
}
