#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stretch of a file folded by ``TextFolding``, with what maps its bytes back to the file's:
/// only the characters whose folding is not as long as they are (accented letters in UTF-8,
/// runs of spaces) are recorded, so a text that is mostly ASCII costs almost nothing more.
struct FoldedBytes {
  /// Where in the file the stretch starts.
  let base: Int
  /// The folded text (UTF-8), in the ``TextFolding``'s buffer: valid until it folds again.
  var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  /// The characters whose folding has another length: where each starts and ends, folded and in
  /// the source (relative to `base`), in order.
  private var folded: [Int] = []
  private var foldedEnd: [Int] = []
  private var source: [Int] = []
  private var sourceEnd: [Int] = []

  init(base: Int) {
    self.base = base
  }

  /// Records a character whose folding has another length than its bytes.
  mutating func diverge(folded start: Int, source: Int, foldedEnd end: Int, sourceEnd: Int) {
    folded.append(start)
    foldedEnd.append(end)
    self.source.append(source)
    self.sourceEnd.append(sourceEnd)
  }

  /// The last recorded character that starts at or before folded byte `position`, if any.
  private func lastDivergence(atOrBefore position: Int) -> Int? {
    var low = 0
    var high = folded.count
    while low < high {
      let middle = (low + high) / 2
      if folded[middle] <= position { low = middle + 1 } else { high = middle }
    }
    return low > 0 ? low - 1 : nil
  }

  /// The file offset of the character folded byte `position` comes from.
  func fileOffset(ofStart position: Int) -> Int {
    guard let at = lastDivergence(atOrBefore: position) else { return base + position }
    if position < foldedEnd[at] { return base + source[at] }
    return base + sourceEnd[at] + (position - foldedEnd[at])
  }

  /// The file offset just after the character folded byte `end - 1` comes from.
  func fileOffset(ofEnd end: Int) -> Int {
    guard end > 0 else { return base }
    guard let at = lastDivergence(atOrBefore: end - 1) else { return base + end }
    if end - 1 < foldedEnd[at] { return base + sourceEnd[at] }
    return base + sourceEnd[at] + (end - foldedEnd[at])
  }

  /// The first occurrence of `needle` at or after folded byte `from`, as folded bytes.
  func find(_ needle: [UInt8], from: Int) -> Range<Int>? {
    guard !needle.isEmpty, from + needle.count <= bytes.count else { return nil }
    let haystack = bytes
    return needle.withUnsafeBufferPointer { wanted in
      // memchr finds each candidate first byte (vectorised), memcmp checks the rest.
      let base = haystack.baseAddress!
      let first = Int32(wanted[0])
      let last = haystack.count - wanted.count
      var position = from
      while position <= last {
        guard let hit = memchr(base + position, first, last - position + 1) else { return nil }
        let start = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
        if wanted.count == 1
          || memcmp(base + start + 1, wanted.baseAddress! + 1, wanted.count - 1) == 0
        {
          return start..<start + wanted.count
        }
        position = start + 1
      }
      return nil
    }
  }

  /// The first line end (`\n` or `\r`) at or after folded byte `from`, if any.
  func lineEnd(from: Int) -> Int? {
    var position = from
    let count = bytes.count
    guard let base = bytes.baseAddress else { return nil }
    while position < count {
      let byte = base[position]
      if byte == 0x0A || byte == 0x0D { return position }
      position += 1
    }
    return nil
  }
}
