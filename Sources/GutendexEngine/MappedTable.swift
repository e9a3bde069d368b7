/// A table of byte strings inside an index file: UInt32 offsets (entries + 1) and the bytes.
///
/// Offsets are clamped to the bytes, so a damaged file can give wrong strings but never a read
/// outside the mapping.
struct MappedTable {
  let offsets: UnsafeRawBufferPointer
  let bytes: UnsafeRawBufferPointer

  /// How many entries the table has.
  var count: Int { max(0, offsets.count / 4 - 1) }

  func offset(_ index: Int) -> Int {
    min(
      Int(UInt32(littleEndian: offsets.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))),
      bytes.count)
  }

  /// The bytes of entry `index` (`0..<count`).
  func entry(_ index: Int) -> UnsafeRawBufferPointer {
    let start = offset(index)
    let end = max(start, offset(index + 1))
    return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
  }

  func string(_ index: Int) -> String {
    String(decoding: entry(index), as: UTF8.self)
  }

  /// A flag per entry: does it contain `needle`?
  func entries(containing needle: [UInt8]) -> [Bool] {
    ByteSearch.entries(containing: needle, in: bytes, count: count) { offset($0) }
  }
}
