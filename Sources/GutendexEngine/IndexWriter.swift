/// Writes a catalogue index file (``CatalogueSnapshot``'s format) from records given one at a
/// time in id order.
///
/// Everything but the records section is kept here: the columns the filters read (a few bytes
/// per book), the pools of distinct strings and the vocabulary, a few tens of MB for the whole
/// catalogue. Each record's bytes are handed back to the caller, which keeps them where it
/// likes (``CatalogueSnapshot/make(records:keepingSummaries:)`` in memory, ``StreamedIndex`` in
/// a temporary file) and gives them back, with their length and CRC-32, to ``write(records:_:)``.
struct IndexWriter {
  private var index = BookIndex.Builder()
  private var copyright: [UInt8] = []
  private var years: [Int?] = []
  private var pool = CatalogueSnapshot.StringTable()
  private var recordOffsets: [Int] = [0]
  private var lastID: Int?
  /// Whether each record ends with its summaries (a synced local catalogue).
  let keepingSummaries: Bool

  init(keepingSummaries: Bool) {
    self.keepingSummaries = keepingSummaries
  }

  var bookCount: Int { index.ids.count }

  /// Adds the next book (its id above the last one's) and returns its record's bytes.
  ///
  /// A book that does not fit ``IndexLimits`` never reaches the file: a number out of range
  /// throws (callers that read books from outside skip those first, with a note), and a list
  /// longer than the reader takes is cut to the limit (callers note that first too).
  mutating func add(_ given: BookRecord) throws -> [UInt8] {
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
    for person in record.authors { years += [person.birthYear, person.deathYear] }
    index.add(record)
    copyright.append(record.copyright.map { $0 ? 1 : 0 } ?? 2)
    let bytes = try CatalogueSnapshot.encode(record, strings: &pool, summaries: keepingSummaries)
    recordOffsets.append(recordOffsets[recordOffsets.count - 1] + bytes.count)
    return bytes
  }

  /// The records section as the caller kept it: its length, CRC-32, and a function that writes
  /// its bytes in order through the function it is given.
  struct Records {
    var count: Int
    var checksum: UInt32
    var write: (_ out: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  }

  /// Writes the whole file through `out`: header, section table, then each section 8-byte
  /// aligned, the records section from `records`.
  func write(records: Records, _ out: (UnsafeRawBufferPointer) throws -> Void) throws {
    guard records.count == recordOffsets[recordOffsets.count - 1] else {
      throw EngineError.badSnapshot("the records section lost bytes")
    }
    let index = index.build()
    var sections = [[UInt8]](repeating: [], count: IndexSection.allCases.count)
    var widths = [UInt32](repeating: 0, count: IndexSection.allCases.count)
    func put(_ section: IndexSection, _ bytes: [UInt8], width: Int = 0) {
      sections[section.rawValue] = bytes
      widths[section.rawValue] = UInt32(width)
    }
    func int32s(_ values: some Sequence<Int>) throws -> [UInt8] {
      var out: [UInt8] = []
      for value in values {
        guard let narrow = Int32(exactly: value) else {
          throw EngineError.badSnapshot("\(value) does not fit the index")
        }
        withUnsafeBytes(of: narrow.littleEndian) { out.append(contentsOf: $0) }
      }
      return out
    }
    func putTable(_ offsets: IndexSection, _ bytes: IndexSection, _ table: ByteTable) throws {
      put(offsets, try int32s(table.offsets))
      put(bytes, table.bytes)
    }
    func strings(_ offsets: IndexSection, _ bytes: IndexSection, _ strings: [String]) throws {
      var table = ByteTable()
      for string in strings { table.append(string.utf8) }
      try putTable(offsets, bytes, table)
    }
    func lists(_ offsets: IndexSection, _ ids: IndexSection, _ lists: IDLists, poolSize: Int)
      throws
    {
      put(offsets, try int32s(lists.offsets))
      let width = poolSize <= 0xFF ? 1 : poolSize <= 0xFFFF ? 2 : 4
      var out: [UInt8] = []
      out.reserveCapacity(lists.ids.count * width)
      for id in lists.ids {
        withUnsafeBytes(of: UInt32(id).littleEndian) { out.append(contentsOf: $0.prefix(width)) }
      }
      put(ids, out, width: width)
    }

    put(.ids, try int32s(self.index.ids))
    put(.downloads, try int32s(self.index.downloads))
    put(.popular, try int32s(index.byDownloads.map(Int.init)))
    put(.copyright, copyright)
    try putTable(.titleOffsets, .titles, index.titles)
    try putTable(.authorNameOffsets, .authorNames, index.authorNames.folded)
    try lists(
      .bookAuthorOffsets, .bookAuthors, index.bookAuthors, poolSize: index.authorNames.count)
    put(.authorYears, try int32s(years.map { $0 ?? Int(IndexSection.nullYear) }))
    try putTable(.topicOffsets, .topics, index.topics.folded)
    try lists(.bookTopicOffsets, .bookTopics, index.bookTopics, poolSize: index.topics.count)
    try strings(.languageOffsets, .languages, index.languages.strings)
    try lists(
      .bookLanguageOffsets, .bookLanguages, index.bookLanguages, poolSize: index.languages.count)
    try strings(.mimeTypeOffsets, .mimeTypes, index.mimeTypes.strings)
    try lists(
      .bookMimeTypeOffsets, .bookMimeTypes, index.bookMimeTypes, poolSize: index.mimeTypes.count)
    try putTable(.stringOffsets, .strings, pool.table)
    put(.recordOffsets, try int32s(recordOffsets))
    let vocabulary = VocabularySections { body in
      for table in [index.titles, index.authorNames.folded, index.topics.folded] {
        table.forEachEntry(body)
      }
    }
    for (section, bytes) in zip(IndexSection.vocabulary, vocabulary.sections) {
      put(section, bytes)
    }

    // Header, section table, then each section 8-byte aligned.
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
    append32(keepingSummaries ? IndexSection.summariesFlag : 0)
    var offset = tableEnd
    for (number, section) in sections.enumerated() {
      let isRecords = number == IndexSection.records.rawValue
      let count = isRecords ? records.count : section.count
      offset = (offset + 7) & ~7
      append64(UInt64(offset))
      append64(UInt64(count))
      append32(widths[number])
      append32(isRecords ? records.checksum : CatalogueSnapshot.checksum(section))
      offset += count
    }
    try head.withUnsafeBytes(out)
    var written = head.count
    let zeros = [UInt8](repeating: 0, count: 8)
    for (number, section) in sections.enumerated() {
      let padding = ((written + 7) & ~7) - written
      try zeros.withUnsafeBytes { try out(UnsafeRawBufferPointer(rebasing: $0.prefix(padding))) }
      written += padding
      if number == IndexSection.records.rawValue {
        try records.write(out)
        written += records.count
      } else {
        try section.withUnsafeBytes(out)
        written += section.count
      }
    }
  }
}
