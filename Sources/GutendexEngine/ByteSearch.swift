import Gutendex

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
  /// One pass over the whole table with `memchr` for the needle's rarest byte and a compare
  /// where it is found, instead of a search per entry: the cost is the table's size, not the
  /// number of entries. (The first byte stopped the scan at every word starting with it: for
  /// "SHAKESPERE" on the token table, at each of tens of thousands of `S`.) `offset` must not
  /// decrease; values past the end of `bytes` are treated as its end, so a damaged table cannot
  /// lead outside it.
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
      let length = pin.count
      let pivot = rarest(pin)
      let target = Int32(pin[pivot])
      // `cursor` is where the needle may start; its pivot byte is `pivot` bytes further.
      var cursor = min(offset(0), total)
      var entry = 0
      while cursor + length <= total {
        let span = total - length - cursor + 1
        guard let found = memchr(base + cursor + pivot, target, span) else { return }
        let at = UnsafeRawPointer(found) - base - pivot
        entry = first(from: entry, count: count, endingAfter: at, end: end)
        guard entry < count else { return }
        if at >= min(offset(entry), total), at + length <= end(entry),
          memcmp(base + at, pinBase, length) == 0
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

  /// The first entry from `start` whose end is past `position` (`count` when none is), found by
  /// galloping then halving: between two hits lie many entries, which a step at a time would
  /// each cost a read of their offset.
  private static func first(
    from start: Int, count: Int, endingAfter position: Int, end: (Int) -> Int
  ) -> Int {
    guard start < count, end(start) <= position else { return start }
    // end(low) <= position throughout; find a `high` with end(high) > position, or count.
    var low = start
    var step = 1
    var high = start + 1
    while high < count, end(high) <= position {
      low = high
      step *= 2
      high = min(count, high + step)
    }
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if end(middle) <= position { low = middle } else { high = middle }
    }
    return high
  }

  /// The index of the byte of `needle` least common in catalogue text (``LetterFrequency``).
  private static func rarest(_ needle: UnsafeRawBufferPointer) -> Int {
    var best = 0
    var bestRank = Int.max
    for index in needle.indices {
      let rank = LetterFrequency.commonness[Int(needle[index])]
      if rank < bestRank {
        best = index
        bestRank = rank
      }
    }
    return best
  }
}
