/// Per-entry lists of book positions inside an index file (version 4): for each title token,
/// author name, topic, language or MIME type, the books that have it.
///
/// UInt32 offsets (entries + 1) delimit each list's bytes. A list that is not empty starts with
/// a tag: 0, positions ascending, `width` bytes each; 1, a bitmap of every book (bit `p % 8` of
/// byte `p / 8` for position `p`), whichever is smaller. Everything read is clamped to the
/// section and to the catalogue's books, so a damaged list can give wrong books, never a read
/// outside the file.
struct PostingLists {
  let offsets: UnsafeRawBufferPointer
  let bytes: UnsafeRawBufferPointer
  let width: Int
  let bookCount: Int

  /// The tag of a list of positions.
  static let positionsTag: UInt8 = 0
  /// The tag of a bitmap.
  static let bitmapTag: UInt8 = 1

  /// How many entries have a list.
  var count: Int { max(0, offsets.count / 4 - 1) }

  /// How many bytes positions take in a catalogue of `books`.
  static func width(forBooks books: Int) -> Int {
    books <= 0x100 ? 1 : books <= 0x1_0000 ? 2 : books <= 0x100_0000 ? 3 : 4
  }

  /// How many bytes a bitmap of `books` takes.
  static func bitmapBytes(forBooks books: Int) -> Int { (books + 7) / 8 }

  private func offset(_ entry: Int) -> Int {
    min(
      Int(UInt32(littleEndian: offsets.loadUnaligned(fromByteOffset: entry * 4, as: UInt32.self))),
      bytes.count)
  }

  /// The list of `entry` (`0..<count`).
  func list(_ entry: Int) -> PostingList {
    guard entry >= 0, entry < count else { return PostingList(bookCount: bookCount) }
    let start = offset(entry)
    let end = max(start, offset(entry + 1))
    guard end > start else { return PostingList(bookCount: bookCount) }
    let body = UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<end])
    return PostingList(
      isBitmap: bytes[start] == Self.bitmapTag, body: body, width: width, bookCount: bookCount)
  }
}

/// One list of ``PostingLists``, read in place.
struct PostingList {
  let isBitmap: Bool
  let body: UnsafeRawBufferPointer
  let width: Int
  let bookCount: Int

  /// The empty list.
  init(bookCount: Int) {
    isBitmap = false
    body = UnsafeRawBufferPointer(start: nil, count: 0)
    width = 1
    self.bookCount = bookCount
  }

  init(isBitmap: Bool, body: UnsafeRawBufferPointer, width: Int, bookCount: Int) {
    self.isBitmap = isBitmap
    self.body = body
    self.width = width
    self.bookCount = bookCount
  }

  /// An upper bound of how many books the list holds (exact for positions).
  var size: Int { isBitmap ? bookCount : body.count / width }

  /// The position at `index` of a list of positions.
  func position(at index: Int) -> Int {
    var value = 0
    for byte in 0..<width { value |= Int(body[index * width + byte]) << (8 * byte) }
    return value
  }

  /// Calls `body` with each book's position, ascending (positions past the catalogue, which a
  /// damaged list could hold, are left out).
  func forEachPosition(_ visit: (Int) -> Void) {
    if isBitmap {
      for (index, byte) in body.enumerated() where byte != 0 {
        var bits = byte
        while bits != 0 {
          let position = index * 8 + bits.trailingZeroBitCount
          if position < bookCount { visit(position) }
          bits &= bits - 1
        }
      }
    } else {
      for index in 0..<(body.count / width) {
        let position = position(at: index)
        if position < bookCount { visit(position) }
      }
    }
  }

  /// ORs the list into `words`, a bitmap of the catalogue's books.
  func addTo(_ words: inout [UInt64]) {
    if isBitmap {
      let full = min(body.count, words.count * 8)
      var index = 0
      while index + 8 <= full {
        words[index / 8] |= UInt64(
          littleEndian: body.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        index += 8
      }
      while index < full {
        words[index / 8] |= UInt64(body[index]) << (8 * UInt64(index % 8))
        index += 1
      }
      // Bits past the catalogue (a damaged bitmap) are cleared.
      let tail = bookCount % 64
      if tail != 0, let last = words.indices.last { words[last] &= (UInt64(1) << tail) - 1 }
    } else {
      forEachPosition { words[$0 >> 6] |= 1 << UInt64($0 & 63) }
    }
  }
}

/// A version 4 index's sections for queries that do not walk the catalogue: each book's rank
/// in the popular order, the titles' distinct tokens, and the posting lists.
///
/// `@unchecked Sendable` is safe for the same reason as ``MappedCatalogue``'s: the buffers
/// point into the catalogue's read-only region, which outlives this value.
struct IndexPostings: @unchecked Sendable {
  let ranks: UnsafeRawBufferPointer
  let tokens: MappedTable
  let tokenBooks: PostingLists
  let nameBooks: PostingLists
  let topicBooks: PostingLists
  let languageBooks: PostingLists
  let mimeTypeBooks: PostingLists

  /// The rank of the book at `position` in the popular order.
  func rank(_ position: Int) -> Int {
    Int(Int32(littleEndian: ranks.loadUnaligned(fromByteOffset: position * 4, as: Int32.self)))
  }
}
