import Foundation

/// Writes a catalogue index file (``CatalogueSnapshot``'s format) from books given one at a
/// time in id order, in bounded memory.
///
/// Every per-book section (ids, download counts, titles, the lists of pool ids, author years,
/// the records) goes to a spill of its own as each book comes (``SpillFile``: a nameless
/// temporary file behind a small buffer); the popular order is sorted by an
/// ``ExternalSorter``; the vocabulary reads the spilled titles back. What stays in memory are
/// the pools of distinct strings (author names, subjects and shelves, languages, MIME types,
/// the records' strings, kept compactly by ``StringInterner``): they grow with the distinct
/// names a catalogue has, not with its books. ``write(_:)`` then lays the file out, header
/// first, copying each section across.
///
/// The same writer makes the embedded snapshot, a feed refresh's base, a sync's delta and any
/// index a test builds, so they are one format written one way.
struct IndexWriter {
  /// Whether each record ends with its summaries (a synced local catalogue).
  let keepingSummaries: Bool
  private(set) var bookCount = 0
  private var lastID: Int?
  /// One spill per section, by ``IndexSection`` number (the sections kept in memory leave
  /// theirs empty); lists of pool ids are spilled 4 bytes wide and narrowed at the end.
  private var spills: [SpillFile]
  private var popular: ExternalSorter<UInt64>
  private var authorNames = StringInterner(.canonical, keepingFolded: true)
  private var topics = StringInterner(.canonical, keepingFolded: true)
  private var languages = StringInterner(.canonical)
  private var mimeTypes = StringInterner(.canonical)
  private var strings = StringInterner(.bytes)
  private var postings: PostingWriter
  /// Running ends of the per-book tables and lists (what their offsets sections hold).
  private var ends: [Int]
  private let directory: URL

  /// How many keys of the popular order are sorted in memory at once (2 MiB).
  static let sortCapacity = 1 << 18
  /// A section spill's buffer.
  static let sectionBuffer = 1 << 16

  /// The sections whose offsets count a per-book table's bytes or a per-book list's ids.
  private static let perBookOffsets: [IndexSection] = [
    .titleOffsets, .bookAuthorOffsets, .bookTopicOffsets, .bookLanguageOffsets,
    .bookMimeTypeOffsets, .recordOffsets,
  ]

  /// A writer whose temporary files go in `directory` (the data directory's catalogue, or the
  /// system's temporary directory for an index made in memory).
  init(keepingSummaries: Bool, in directory: URL) throws(SyncFileError) {
    self.keepingSummaries = keepingSummaries
    self.directory = directory
    spills = IndexSection.allCases.map { section in
      SpillFile(
        in: directory,
        bufferSize: section == .records ? SpillFile.largeBuffer : Self.sectionBuffer)
    }
    popular = ExternalSorter(in: directory, capacity: Self.sortCapacity)
    postings = PostingWriter(in: directory)
    ends = [Int](repeating: 0, count: IndexSection.allCases.count)
    for section in Self.perBookOffsets { try spills[section.rawValue].append32(0) }
  }

  /// Frees the temporary files (the writer is not used after).
  func close() {
    for spill in spills { spill.close() }
    popular.close()
    postings.close()
  }

  private mutating func put(_ section: IndexSection, _ value: Int) throws {
    guard let narrow = Int32(exactly: value) else {
      throw EngineError.badSnapshot("\(value) does not fit the index")
    }
    try spills[section.rawValue].append32(UInt32(bitPattern: narrow))
  }

  /// Appends a list of pool ids to `list` and its end to `offsets`.
  private mutating func putList(
    _ list: IndexSection, _ offsets: IndexSection, _ ids: some Sequence<Int32>
  ) throws {
    for id in ids {
      try spills[list.rawValue].append32(UInt32(bitPattern: id))
      ends[offsets.rawValue] += 1
    }
    try put(offsets, ends[offsets.rawValue])
  }

  /// Adds the next book (its id above the last one's).
  ///
  /// A book that does not fit ``IndexLimits`` never reaches the file: a number out of range
  /// throws (callers that read books from outside skip those first, with a note), and a list
  /// longer than the reader takes is cut to the limit (callers note that first too).
  mutating func add(_ given: BookRecord) throws {
    if let problem = IndexLimits.outOfRange(given) {
      throw EngineError.badSnapshot("book \(given.id): \(problem)")
    }
    var record = given
    _ = IndexLimits.cutLists(&record)
    if let lastID, record.id <= lastID {
      throw record.id == lastID
        ? EngineError.duplicateID(record.id)
        : EngineError.badSnapshot("book \(record.id) after book \(lastID)")
    }
    lastID = record.id
    let position = bookCount
    try put(.ids, record.id)
    try put(.downloads, record.downloadCount)
    // Downloads descending, then position (so id) ascending: one key, sorted ascending.
    try popular.append(
      UInt64(UInt32(Int32.max) - UInt32(record.downloadCount)) << 32 | UInt64(position))
    try spills[IndexSection.copyright.rawValue].append(
      CollectionOfOne(record.copyright.map { $0 ? 1 : 0 } ?? 2))
    let title = ByteTable.fold(record.title)
    try spills[IndexSection.titles.rawValue].append(title)
    ends[IndexSection.titleOffsets.rawValue] += title.count
    try put(.titleOffsets, ends[IndexSection.titleOffsets.rawValue])
    let names = record.authors.map { authorNames.id($0.name) }
    try putList(.bookAuthors, .bookAuthorOffsets, names)
    for person in record.authors {
      for year in [person.birthYear, person.deathYear] {
        try put(.authorYears, year ?? Int(IndexSection.nullYear))
      }
    }
    let topicIDs = (record.subjects + record.bookshelves).map { topics.id($0) }
    try putList(.bookTopics, .bookTopicOffsets, topicIDs)
    let languageIDs = record.languages.map { languages.id($0) }
    try putList(.bookLanguages, .bookLanguageOffsets, languageIDs)
    let mimeTypeIDs = record.formats.map { mimeTypes.id($0.mime) }
    try putList(.bookMimeTypes, .bookMimeTypeOffsets, mimeTypeIDs)
    try postings.add(
      position: position, title: title, names: names, topics: topicIDs, languages: languageIDs,
      mimeTypes: mimeTypeIDs)
    let bytes = try CatalogueSnapshot.encode(record, strings: &strings, summaries: keepingSummaries)
    try spills[IndexSection.records.rawValue].append(bytes)
    ends[IndexSection.recordOffsets.rawValue] += bytes.count
    try put(.recordOffsets, ends[IndexSection.recordOffsets.rawValue])
    bookCount += 1
  }

  /// Writes the whole file through `out`, in pieces: header, section table, then each section
  /// 8-byte aligned.
  mutating func write(_ out: (UnsafeRawBufferPointer) throws -> Void) throws {
    var order = popular
    var ranked = spills[IndexSection.popular.rawValue]
    var lists = postings
    var rank = 0
    try order.forEachSorted { key in
      let position = UInt32(truncatingIfNeeded: key)
      try ranked.append32(position)
      try lists.rank(position: Int(position), rank: rank)
      rank += 1
    }
    popular = order
    spills[IndexSection.popular.rawValue] = ranked
    var contents = spills.map { SectionContent.spill($0) }
    func memory(_ section: IndexSection, _ bytes: [UInt8]) {
      contents[section.rawValue] = .bytes(bytes)
    }
    func table(_ offsets: IndexSection, _ bytes: IndexSection, _ table: ByteTable) throws {
      memory(offsets, try Self.int32s(table.offsets))
      memory(bytes, table.bytes)
    }
    try table(.authorNameOffsets, .authorNames, authorNames.folded)
    try table(.topicOffsets, .topics, topics.folded)
    try table(.languageOffsets, .languages, languages.table)
    try table(.mimeTypeOffsets, .mimeTypes, mimeTypes.table)
    try table(.stringOffsets, .strings, strings.table)
    var widths = [UInt32](repeating: 0, count: IndexSection.allCases.count)
    for (list, poolSize) in [
      (IndexSection.bookAuthors, authorNames.count), (.bookTopics, topics.count),
      (.bookLanguages, languages.count), (.bookMimeTypes, mimeTypes.count),
    ] {
      let width = poolSize <= 0xFF ? 1 : poolSize <= 0xFFFF ? 2 : 4
      widths[list.rawValue] = UInt32(width)
      let narrowed = try narrow(spills[list.rawValue], to: width)
      spills.append(narrowed)
      contents[list.rawValue] = .spill(narrowed)
    }
    let vocabulary = try vocabularySections()
    for (section, bytes) in zip(IndexSection.vocabulary, vocabulary.sections) {
      memory(section, bytes)
    }
    memory(.lexicon, vocabulary.lexicon)
    let added = try lists.sections(
      bookCount: bookCount,
      entries: [
        .name: authorNames.count, .topic: topics.count, .language: languages.count,
        .mimeType: mimeTypes.count, .token: lists.tokens.count,
      ])
    postings = lists
    for (section, content) in added.contents {
      contents[section.rawValue] = content
      if case .spill(let spill) = content { spills.append(spill) }
    }
    for (section, width) in added.widths { widths[section.rawValue] = width }
    try Self.layOut(
      contents, widths: widths, bookCount: bookCount,
      flags: keepingSummaries ? IndexSection.summariesFlag : 0, out)
  }

  /// The 4-byte ids of `wide` as `width`-byte ones, in a new spill.
  private func narrow(_ wide: SpillFile, to width: Int) throws -> SpillFile {
    var narrowed = SpillFile(in: directory, bufferSize: Self.sectionBuffer)
    var piece: [UInt8] = []
    try wide.forEachPiece { chunk in
      piece.removeAll(keepingCapacity: true)
      var index = 0
      while index + 4 <= chunk.count {
        piece.append(contentsOf: chunk[index..<(index + width)])
        index += 4
      }
      try narrowed.append(piece)
    }
    return narrowed
  }

  /// The vocabulary of the titles (read back from their spill), names and topics.
  private func vocabularySections() throws -> VocabularySections {
    var failure: (any Error)?
    let titles = spills[IndexSection.titles.rawValue]
    let offsets = spills[IndexSection.titleOffsets.rawValue]
    let books = bookCount
    let sections = VocabularySections { body in
      guard failure == nil else { return }
      do {
        try Self.forEachEntry(offsets: offsets, bytes: titles, count: books, body)
      } catch {
        failure = error
      }
      for table in [authorNames.folded, topics.folded] { table.forEachEntry(body) }
    }
    if let failure { throw failure }
    return sections
  }

  /// Calls `body` with each entry of a spilled table (`count` entries: UInt32 offsets, then
  /// the bytes), reading them back a few hundred kilobytes of whole entries at a time.
  static func forEachEntry(
    offsets: SpillFile, bytes: SpillFile, count: Int, _ body: (UnsafeRawBufferPointer) -> Void
  ) throws(SyncFileError) {
    let batch = 4096
    var bounds: [UInt8] = []
    var piece: [UInt8] = []
    var first = 0
    while first < count {
      let last = min(count, first + batch)
      try offsets.read(at: 4 * first, count: 4 * (last - first + 1), into: &bounds)
      func bound(_ entry: Int) -> Int {
        bounds.withUnsafeBytes {
          Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 4 * entry, as: UInt32.self)))
        }
      }
      var entry = 0
      while entry < last - first {
        // Whole entries up to about 256 KiB (one longer entry alone).
        var end = entry + 1
        while end < last - first, bound(end + 1) - bound(entry) <= 1 << 18 { end += 1 }
        let start = bound(entry)
        try bytes.read(at: start, count: bound(end) - start, into: &piece)
        piece.withUnsafeBytes { raw in
          for index in entry..<end {
            body(
              UnsafeRawBufferPointer(
                rebasing: raw[(bound(index) - start)..<(bound(index + 1) - start)]))
          }
        }
        entry = end
      }
      first = last
    }
  }

  /// Little-endian Int32s (offsets of a table kept in memory).
  static func int32s(_ values: some Sequence<Int>) throws -> [UInt8] {
    var out: [UInt8] = []
    for value in values {
      guard let narrow = Int32(exactly: value) else {
        throw EngineError.badSnapshot("\(value) does not fit the index")
      }
      withUnsafeBytes(of: narrow.littleEndian) { out.append(contentsOf: $0) }
    }
    return out
  }

  /// Writes header, section table and sections (each 8-byte aligned) through `out`.
  static func layOut(
    _ sections: [SectionContent], widths: [UInt32], bookCount: Int, flags: UInt32,
    _ out: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let tableEnd = IndexSection.headerSize + IndexSection.entrySize * sections.count
    var head = IndexSection.magic
    func append32(_ value: UInt32) {
      withUnsafeBytes(of: value.littleEndian) { head.append(contentsOf: $0) }
    }
    func append64(_ value: UInt64) {
      withUnsafeBytes(of: value.littleEndian) { head.append(contentsOf: $0) }
    }
    append32(IndexSection.version)
    append32(UInt32(sections.count))
    append32(UInt32(bookCount))
    append32(flags)
    var offset = tableEnd
    for (number, section) in sections.enumerated() {
      offset = (offset + 7) & ~7
      append64(UInt64(offset))
      append64(UInt64(section.count))
      append32(widths[number])
      append32(section.checksum)
      offset += section.count
    }
    try head.withUnsafeBytes(out)
    var written = head.count
    let zeros = [UInt8](repeating: 0, count: 8)
    for section in sections {
      let padding = ((written + 7) & ~7) - written
      try zeros.withUnsafeBytes { try out(UnsafeRawBufferPointer(rebasing: $0.prefix(padding))) }
      written += padding
      try section.write(out)
      written += section.count
    }
  }
}

/// A section's bytes as ``IndexWriter`` holds them until the file is laid out.
enum SectionContent {
  case bytes([UInt8])
  case spill(SpillFile)

  var count: Int {
    switch self {
    case .bytes(let bytes): bytes.count
    case .spill(let spill): spill.size
    }
  }

  var checksum: UInt32 {
    switch self {
    case .bytes(let bytes): CatalogueSnapshot.checksum(bytes)
    case .spill(let spill): spill.checksum
    }
  }

  func write(_ out: (UnsafeRawBufferPointer) throws -> Void) throws {
    switch self {
    case .bytes(let bytes): try bytes.withUnsafeBytes(out)
    case .spill(let spill): try spill.forEachPiece { try $0.withUnsafeBytes(out) }
    }
  }
}
