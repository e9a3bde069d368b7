/// The checks an index file passes when it is opened (see ``MappedCatalogue``), cheap enough
/// for every cold query: a file that fails one is damaged and is not served.
///
/// - Bounds: the writer lays the sections out one after the other from the end of the section
///   table, each 8-byte aligned, the last ending the file; any other layout (an offset moved,
///   a length changed, bytes added or cut) is refused, so no section can overlap another or
///   reach outside the file.
/// - Tables and lists: each offsets section starts at 0, ends at its bytes' length and never
///   goes down at its ends (the entries between are clamped when read).
/// - Checksums of the small sections and of the per-book columns every listing reads (ids,
///   downloads, popular order, copyright: about a megabyte); the big sections (titles,
///   topics, strings, records, ...) are checked by ``MappedCatalogue/verifyChecksums()``,
///   which `gutenberg doctor` runs.
/// - Values: ids ascending and in ``IndexLimits/ids``, download counts in range, the popular
///   order a list of positions, each book's rank (version 4) one of them.
enum IndexCheck {
  /// Sections up to this size are checked against their CRC-32 at every open.
  static let smallSection = 64 << 10

  /// The sections checked at open besides the small ones.
  static let columns: [IndexSection] = [.ids, .downloads, .popular, .copyright, .ranks]

  /// Throws when `ranges` (in file order) are not the writer's layout after `tableEnd` in a
  /// file of `fileSize` bytes.
  static func layout(_ ranges: [Range<Int>], tableEnd: Int, fileSize: Int) throws(EngineError) {
    var expected = align(tableEnd)
    for (number, range) in ranges.enumerated() {
      guard range.lowerBound == expected else {
        throw .badSnapshot(
          "section \(IndexSection(rawValue: number).map { "\($0)" } ?? "\(number)") is not "
            + "where the one before it ends")
      }
      expected = align(range.upperBound)
    }
    guard ranges.last?.upperBound == fileSize else {
      throw .badSnapshot("the file does not end where its last section does")
    }
  }

  private static func align(_ offset: Int) -> Int { (offset + 7) & ~7 }

  /// Throws when the UInt32 offsets in `offsets` do not start at 0 and end at `end`.
  static func offsets(
    _ offsets: UnsafeRawBufferPointer, end: Int, _ section: IndexSection
  ) throws(EngineError) {
    guard offsets.count >= 4 else { throw .badSnapshot("section \(section) is empty") }
    let first = uint32(offsets, 0)
    let last = uint32(offsets, offsets.count / 4 - 1)
    guard first == 0, last == end else {
      throw .badSnapshot("section \(section) does not cover its bytes")
    }
  }

  /// Throws when a section checked at open fails its checksum.
  static func checksums(
    _ sections: [UnsafeRawBufferPointer], _ expected: [UInt32]
  ) throws(EngineError) {
    for (number, bytes) in sections.enumerated() {
      guard let section = IndexSection(rawValue: number),
        bytes.count <= smallSection || columns.contains(section)
      else { continue }
      guard CatalogueSnapshot.checksum(bytes) == expected[number] else {
        throw .badSnapshot("section \(section) fails its checksum")
      }
    }
  }

  /// Throws when the per-book columns hold values the writer never writes.
  static func columns(
    ids: UnsafeRawBufferPointer, downloads: UnsafeRawBufferPointer,
    popular: UnsafeRawBufferPointer, ranks: UnsafeRawBufferPointer?, books: Int
  ) throws(EngineError) {
    guard
      !columnsHold(ids: ids, downloads: downloads, popular: popular, ranks: ranks, books: books)
    else { return }
    // Something is wrong: found (and named) a position at a time.
    var previous = -1
    for position in 0..<books {
      let id = int32(ids, position)
      guard id > previous else {
        throw .badSnapshot("the ids are not ascending at position \(position)")
      }
      previous = id
      guard int32(downloads, position) >= 0 else {
        throw .badSnapshot("book \(id) has a negative download count")
      }
      let rank = int32(popular, position)
      guard rank >= 0, rank < books else {
        throw .badSnapshot("the popular order names position \(rank) of \(books)")
      }
      if let ranks {
        let own = int32(ranks, position)
        guard own >= 0, own < books else {
          throw .badSnapshot("book \(id) has rank \(own) of \(books)")
        }
      }
    }
  }

  /// Whether the columns pass ``columns(ids:downloads:popular:ranks:books:)``: the same tests
  /// without a branch per position, so the compiler takes several positions at a time (every
  /// cold query runs this over every book: 300,000 on a catalogue four times today's).
  private static func columnsHold(
    ids: UnsafeRawBufferPointer, downloads: UnsafeRawBufferPointer,
    popular: UnsafeRawBufferPointer, ranks: UnsafeRawBufferPointer?, books: Int
  ) -> Bool {
    guard books > 0 else { return true }
    // The sizes were checked before (4 bytes a book), so every load below is inside.
    guard ids.count >= 4 * books, downloads.count >= 4 * books, popular.count >= 4 * books,
      (ranks?.count ?? 4 * books) >= 4 * books
    else { return false }
    let bound = UInt32(books)
    func load(_ buffer: UnsafeRawBufferPointer, _ position: Int) -> Int32 {
      Int32(littleEndian: buffer.loadUnaligned(fromByteOffset: position &* 4, as: Int32.self))
    }
    // A position's faults, ORed: an id not above the one before, a negative count, an order
    // entry or rank outside the books (negative ones read as unsigned are outside too).
    var faults: UInt32 = load(ids, 0) < 0 ? 1 : 0
    for position in 1..<books {
      faults |= load(ids, position) > load(ids, position &- 1) ? 0 : 1
    }
    for position in 0..<books {
      faults |= UInt32(bitPattern: load(downloads, position)) >> 31
      faults |= UInt32(bitPattern: load(popular, position)) < bound ? 0 : 1
    }
    if let ranks {
      for position in 0..<books {
        faults |= UInt32(bitPattern: load(ranks, position)) < bound ? 0 : 1
      }
    }
    return faults == 0
  }

  private static func uint32(_ buffer: UnsafeRawBufferPointer, _ index: Int) -> Int {
    Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
  }

  private static func int32(_ buffer: UnsafeRawBufferPointer, _ index: Int) -> Int {
    Int(Int32(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 4, as: Int32.self)))
  }
}
