/// Per-book lists of small ids inside an index file: UInt32 offsets (books + 1) and ids of
/// `width` bytes (1, 2 or 4).
///
/// Ranges are clamped to the ids, so a damaged file can give wrong lists but never a read
/// outside the mapping.
struct MappedLists {
  let offsets: UnsafeRawBufferPointer
  let ids: UnsafeRawBufferPointer
  let width: Int

  /// How many ids there are in all.
  var idCount: Int { ids.count / width }

  private func offset(_ book: Int) -> Int {
    min(
      Int(UInt32(littleEndian: offsets.loadUnaligned(fromByteOffset: book * 4, as: UInt32.self))),
      idCount)
  }

  /// The positions (into all ids) of `book`'s list.
  func range(_ book: Int) -> Range<Int> {
    let start = offset(book)
    return start..<max(start, offset(book + 1))
  }

  /// The id at `position` (`0..<idCount`).
  func id(at position: Int) -> Int {
    switch width {
    case 1: Int(ids[position])
    case 2:
      Int(UInt16(littleEndian: ids.loadUnaligned(fromByteOffset: position * 2, as: UInt16.self)))
    default:
      Int(UInt32(littleEndian: ids.loadUnaligned(fromByteOffset: position * 4, as: UInt32.self)))
    }
  }

  func isEmpty(_ book: Int) -> Bool { range(book).isEmpty }

  /// True when any id of `book` is flagged (ids past the flags never are).
  func any(_ book: Int, in flags: [Bool]) -> Bool {
    for position in range(book) {
      let id = self.id(at: position)
      if id < flags.count, flags[id] { return true }
    }
    return false
  }
}
