import Foundation

/// What an ``IndexWriter`` adds for version 4: the titles' distinct tokens, a posting list per
/// token, author name, topic, language and MIME type, and each book's rank in the popular
/// order. Each (list, book) pair goes to an ``ExternalSorter`` as the book comes; the lists are
/// written from the sorted pairs, one list in memory at a time.
struct PostingWriter {
  /// Which lists a pair belongs to (the top bits of its key).
  enum Kind: Int, CaseIterable {
    case token, name, topic, language, mimeType

    /// The offsets and bytes sections of its lists.
    var sections: (offsets: IndexSection, bytes: IndexSection) {
      switch self {
      case .token: (.tokenBookOffsets, .tokenBooks)
      case .name: (.nameBookOffsets, .nameBooks)
      case .topic: (.topicBookOffsets, .topicBooks)
      case .language: (.languageBookOffsets, .languageBooks)
      case .mimeType: (.mimeTypeBookOffsets, .mimeTypeBooks)
      }
    }
  }

  /// The distinct tokens of the titles, in the order first met.
  private(set) var tokens = StringInterner(.bytes)
  /// (kind, list, position) as `kind << 61 | list << 32 | position`.
  private var pairs: ExternalSorter<UInt64>
  /// (position, rank) as `position << 32 | rank`.
  private var ranks: ExternalSorter<UInt64>
  private let directory: URL

  init(in directory: URL) {
    self.directory = directory
    pairs = ExternalSorter(in: directory, capacity: IndexWriter.sortCapacity)
    ranks = ExternalSorter(in: directory, capacity: IndexWriter.sortCapacity)
  }

  func close() {
    pairs.close()
    ranks.close()
  }

  /// The tokens of an upper-folded title: its runs of bytes between spaces (a search term
  /// holds no space, so it is in the title exactly when it is in one of them).
  static func forEachToken(in title: [UInt8], _ body: (ArraySlice<UInt8>) -> Void) {
    var start = 0
    for (index, byte) in title.enumerated() where byte == 0x20 {
      if index > start { body(title[start..<index]) }
      start = index + 1
    }
    if title.count > start { body(title[start...]) }
  }

  /// Adds the book at `position`: its folded title's tokens and its lists' ids.
  mutating func add(
    position: Int, title: [UInt8], names: [Int32], topics: [Int32], languages: [Int32],
    mimeTypes: [Int32]
  ) throws {
    var tokenIDs: [Int32] = []
    Self.forEachToken(in: title) { tokenIDs.append(Int32(tokens.id(Array($0)))) }
    for (kind, ids) in [
      (Kind.token, tokenIDs), (.name, names), (.topic, topics), (.language, languages),
      (.mimeType, mimeTypes),
    ] {
      // A book is in a list once, however often it names the entry.
      for id in Set(ids).sorted() {
        try pairs.append(
          UInt64(kind.rawValue) << 61 | UInt64(UInt32(bitPattern: id)) << 32 | UInt64(position))
      }
    }
  }

  /// Notes that the book at `position` has `rank` in the popular order.
  mutating func rank(position: Int, rank: Int) throws {
    try ranks.append(UInt64(position) << 32 | UInt64(rank))
  }

  /// The sections, as ``IndexWriter`` lays them out: contents by section, and the widths of
  /// the posting sections. `entries` is how many lists each kind has (its pool's size).
  mutating func sections(bookCount: Int, entries: [Kind: Int]) throws -> (
    contents: [IndexSection: SectionContent], widths: [IndexSection: UInt32]
  ) {
    var contents: [IndexSection: SectionContent] = [:]
    var widths: [IndexSection: UInt32] = [:]
    var ranked = SpillFile(in: directory, bufferSize: IndexWriter.sectionBuffer)
    try ranks.forEachSorted { key in try ranked.append32(UInt32(truncatingIfNeeded: key)) }
    contents[.ranks] = .spill(ranked)
    contents[.tokenOffsets] = .bytes(try IndexWriter.int32s(tokens.table.offsets))
    contents[.tokens] = .bytes(tokens.table.bytes)

    let width = PostingLists.width(forBooks: bookCount)
    let bitmapBytes = PostingLists.bitmapBytes(forBooks: bookCount)
    var offsets = Kind.allCases.map { _ in
      SpillFile(in: directory, bufferSize: IndexWriter.sectionBuffer)
    }
    var lists = Kind.allCases.map { _ in
      SpillFile(in: directory, bufferSize: IndexWriter.sectionBuffer)
    }
    for kind in Kind.allCases { try offsets[kind.rawValue].append32(0) }
    // The list being gathered: its positions while they are fewer than a bitmap's bytes, then
    // the bitmap.
    var positions: [Int] = []
    var bitmap: [UInt8]?
    var current: (kind: Int, list: Int)?
    var written = Kind.allCases.map { _ in 0 }
    func finish() throws {
      guard let (kind, _) = current else { return }
      if let map = bitmap {
        try lists[kind].append(CollectionOfOne(PostingLists.bitmapTag))
        try lists[kind].append(map)
      } else if !positions.isEmpty {
        try lists[kind].append(CollectionOfOne(PostingLists.positionsTag))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(positions.count * width)
        for position in positions {
          withUnsafeBytes(of: UInt32(position).littleEndian) {
            bytes.append(contentsOf: $0.prefix(width))
          }
        }
        try lists[kind].append(bytes)
      }
      written[kind] += 1
      guard let end = UInt32(exactly: lists[kind].size) else {
        throw EngineError.badSnapshot("a posting section does not fit the index")
      }
      try offsets[kind].append32(end)
      positions.removeAll(keepingCapacity: true)
      bitmap = nil
    }
    /// Empty lists up to `list` of `kind` (every entry has a list, its own books or none).
    func pad(_ kind: Int, upTo list: Int) throws {
      while written[kind] < list {
        written[kind] += 1
        try offsets[kind].append32(UInt32(lists[kind].size))
      }
    }
    try pairs.forEachSorted { key in
      let kind = Int(key >> 61)
      let list = Int((key >> 32) & 0x1FFF_FFFF)
      let position = Int(key & 0xFFFF_FFFF)
      if current.map({ $0.kind != kind || $0.list != list }) ?? true {
        try finish()
        try pad(kind, upTo: list)
        current = (kind, list)
      }
      if bitmap != nil {
        bitmap?[position >> 3] |= 1 << UInt8(position & 7)
      } else if positions.last != position {
        positions.append(position)
        if positions.count * width > bitmapBytes {
          var map = [UInt8](repeating: 0, count: bitmapBytes)
          for held in positions { map[held >> 3] |= 1 << UInt8(held & 7) }
          bitmap = map
          positions.removeAll(keepingCapacity: true)
        }
      }
    }
    try finish()
    for kind in Kind.allCases {
      try pad(kind.rawValue, upTo: entries[kind] ?? 0)
      let (offsetSection, bytesSection) = kind.sections
      contents[offsetSection] = .spill(offsets[kind.rawValue])
      contents[bytesSection] = .spill(lists[kind.rawValue])
      widths[bytesSection] = UInt32(width)
    }
    return (contents, widths)
  }
}
