/// The compressed bytes between the first bit ``ParallelBzip2`` may still read (its confirmed
/// position) and the last byte received, with their absolute offsets in the input; bits are
/// read and copied out of it at any bit offset. Bytes before the confirmed position are
/// dropped, so it holds a few blocks' worth (the blocks decoding ahead), however long the feed.
struct Bzip2Window: ~Copyable {
  private var storage: UnsafeMutableRawBufferPointer
  /// Bytes of `storage` before the first one held (dropped, not yet moved down).
  private var offset = 0
  /// The absolute index of the first byte held.
  private(set) var base = 0
  /// How many bytes are held.
  private(set) var count = 0

  init(capacity: Int = 4 << 20) {
    storage = .allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
    storage.deallocate()
  }

  /// The absolute index one past the last byte held.
  var end: Int { base + count }

  /// The bytes held, valid until the window next changes.
  var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[offset..<offset + count])
  }

  /// Adds the next bytes of the input.
  mutating func append(_ piece: UnsafeRawBufferPointer) {
    guard !piece.isEmpty else { return }
    if offset + count + piece.count > storage.count {
      if count + piece.count <= storage.count / 2 {
        // Room once the dropped bytes are gone: move the held ones down.
        storage.baseAddress!.copyMemory(from: storage.baseAddress! + offset, byteCount: count)
      } else {
        let grown = UnsafeMutableRawBufferPointer.allocate(
          byteCount: max(storage.count * 2, count + piece.count), alignment: 16)
        grown.baseAddress!.copyMemory(from: storage.baseAddress! + offset, byteCount: count)
        storage.deallocate()
        storage = grown
      }
      offset = 0
    }
    (storage.baseAddress! + offset + count).copyMemory(
      from: piece.baseAddress!, byteCount: piece.count)
    count += piece.count
  }

  /// Drops the bytes before absolute index `index` (they are never read again).
  mutating func drop(before index: Int) {
    let dropped = min(max(index - base, 0), count)
    offset += dropped
    base += dropped
    count -= dropped
  }

  /// The `width` (1 to 57) bits from absolute bit `bit` on, the first one highest; bits past
  /// the last byte held read as zeros (callers check the length first). Throws for a bit
  /// before the first byte held (dropped): ``ParallelBzip2`` reads from its confirmed
  /// position on, which the window never drops past, but the bits come from the input, so a
  /// read out of bounds is a failure, never a trap.
  func bits(at bit: Int, width: Int) throws(ParallelBzip2.Failure) -> UInt64 {
    // Every caller passes a constant width (32 or 48).
    assert(width > 0 && width <= 57, "at most 57 bits fit a read of 8 bytes")
    guard bit >= base * 8 else { throw Self.damaged(at: bit) }
    var value: UInt64 = 0
    let first = bit >> 3
    for index in first..<first + 8 {
      let byte = index < end ? storage[offset + index - base] : 0
      value = value << 8 | UInt64(byte)
    }
    return (value << UInt64(bit & 7)) >> UInt64(64 - width)
  }

  /// Appends to `out` the bits from absolute bit `from` to `to`, shifted so the first is the
  /// highest bit of the first byte added; the last byte's bits past `to` are zeros. Returns how
  /// many bits the last byte added holds (1 to 8). Throws unless the bits are held and not
  /// empty: a block's bounds are candidates found in the input, which ``ParallelBzip2`` takes
  /// from its confirmed position to at most the last byte held, but a copy out of bounds is a
  /// failure, never a trap.
  func copyBits(
    from: Int, to: Int, into out: inout [UInt8]
  ) throws(ParallelBzip2.Failure) -> Int {
    guard from >= base * 8, to <= end * 8, from < to else { throw Self.damaged(at: from) }
    let length = to - from
    let byteCount = (length + 7) >> 3
    let shift = from & 7
    let source = storage.baseAddress! + offset + (from >> 3) - base
    // How many source bytes the bits touch: the last one read at `count - 1`.
    let available = ((to + 7) >> 3) - (from >> 3)
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: byteCount))
    out.withUnsafeMutableBytes { target in
      let target = target.baseAddress! + start
      if shift == 0 {
        target.copyMemory(from: source, byteCount: byteCount)
      } else {
        let left = UInt8(shift)
        let right = UInt8(8 - shift)
        for index in 0..<byteCount {
          let high = source.load(fromByteOffset: index, as: UInt8.self) << left
          let low =
            index + 1 < available
            ? source.load(fromByteOffset: index + 1, as: UInt8.self) >> right
            : 0
          target.storeBytes(of: high | low, toByteOffset: index, as: UInt8.self)
        }
      }
      let used = length & 7
      if used != 0 {
        let last = target.load(fromByteOffset: byteCount - 1, as: UInt8.self)
        target.storeBytes(
          of: last & ~(0xFF >> UInt8(used)), toByteOffset: byteCount - 1, as: UInt8.self)
      }
    }
    return length & 7 == 0 ? 8 : length & 7
  }

  private static func damaged(at bit: Int) -> ParallelBzip2.Failure {
    ParallelBzip2.Failure(reason: "damaged bzip2 data at byte \(max(bit, 0) >> 3)")
  }
}
