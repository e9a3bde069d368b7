/// A table of byte strings inside an index file: UInt32 offsets (entries + 1) and the bytes.
///
/// Searches read the bytes in pieces with `pread` and single entries are read on their own, so
/// neither maps the table's pages into the process (see ``ByteRegion``). Offsets are clamped to
/// the bytes, so a damaged file can give wrong strings but never a read outside the file.
struct MappedTable {
  let region: ByteRegion
  /// Where the offsets and the bytes lie in the region.
  let offsets: Range<Int>
  let bytes: Range<Int>

  /// How many bytes a search reads at a time.
  static let piece = 1 << 18

  /// How many entries the table has.
  var count: Int { max(0, offsets.count / 4 - 1) }

  /// Entry `index`'s start (relative to the bytes), read through the mapping: for scans, which
  /// read every offset in order anyway.
  func offset(_ index: Int) -> Int {
    let value = region.base.loadUnaligned(
      fromByteOffset: offsets.lowerBound + index * 4, as: UInt32.self)
    return min(Int(UInt32(littleEndian: value)), bytes.count)
  }

  /// The bytes of entry `index` (`0..<count`), read on their own.
  func entry(_ index: Int) -> [UInt8] {
    let pair = region.read((offsets.lowerBound + index * 4)..<(offsets.lowerBound + index * 4 + 8))
    guard pair.count == 8 else { return [] }
    func value(_ at: Int) -> Int {
      min(
        Int(pair[at]) | Int(pair[at + 1]) << 8 | Int(pair[at + 2]) << 16 | Int(pair[at + 3]) << 24,
        bytes.count)
    }
    let start = value(0)
    let end = max(start, value(4))
    return region.read((bytes.lowerBound + start)..<(bytes.lowerBound + end))
  }

  /// The bytes of entry `index` read through the mapping (no system call; the pages become
  /// resident): for reading a whole table once, as a rebuild does.
  func mappedEntry(_ index: Int) -> UnsafeRawBufferPointer {
    let start = offset(index)
    let end = max(start, offset(index + 1))
    let lower = min(bytes.lowerBound + start, region.count)
    let upper = min(bytes.lowerBound + end, region.count)
    return UnsafeRawBufferPointer(rebasing: region.buffer[lower..<upper])
  }

  func string(_ index: Int) -> String {
    String(decoding: entry(index), as: UTF8.self)
  }

  /// Calls `body` with each entry's bytes in turn (the table is read in one piece).
  func forEachEntry(_ body: (UnsafeRawBufferPointer) -> Void) {
    let all = region.read(bytes)
    all.withUnsafeBytes { raw in
      for index in 0..<count {
        let start = min(offset(index), raw.count)
        let end = min(max(start, offset(index + 1)), raw.count)
        body(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
      }
    }
  }

  /// A flag per entry: does it contain `needle`? Reads the table in pieces of about
  /// ``piece`` bytes, each a run of whole entries.
  func entries(containing needle: [UInt8]) -> [Bool] {
    var flags: [Bool] = []
    flags.reserveCapacity(count)
    var first = 0
    while first < count {
      let start = offset(first)
      // The last entry that ends within a piece of `start` (at least one entry, however
      // long), found by halving: offsets do not decrease.
      var low = first + 1
      var high = count
      while low < high {
        let middle = low + (high - low + 1) / 2
        if offset(middle) - start <= Self.piece { low = middle } else { high = middle - 1 }
      }
      let last = low
      let end = max(start, offset(last))
      let piece = region.read((bytes.lowerBound + start)..<(bytes.lowerBound + end))
      let base = first
      piece.withUnsafeBytes { raw in
        flags += ByteSearch.entries(containing: needle, in: raw, count: last - base) {
          max(0, offset(base + $0) - start)
        }
      }
      first = last
    }
    return flags
  }
}
