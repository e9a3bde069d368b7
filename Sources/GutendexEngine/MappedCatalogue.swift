/// A catalogue index file read in place (see ``CatalogueSnapshot``): opening it reads only the
/// header; each query touches the columns it needs and the records it returns.
///
/// `@unchecked Sendable` is safe: every stored property is a `let`, the buffers point into
/// `region`'s read-only bytes, and `region` (which owns them) lives as long as this object.
final class MappedCatalogue: BookColumns, @unchecked Sendable {
  private let region: ByteRegion
  let bookCount: Int
  /// Whether each record ends with the book's summaries (``IndexSection/summariesFlag``).
  let hasSummaries: Bool
  private let sections: [UnsafeRawBufferPointer]
  private let checksums: [UInt32]
  private let ids: UnsafeRawBufferPointer
  private let downloads: UnsafeRawBufferPointer
  private let popularOrder: UnsafeRawBufferPointer
  private let copyrights: UnsafeRawBufferPointer
  private let titles: MappedTable
  private let authorNames: MappedTable
  private let bookAuthors: MappedLists
  private let authorYears: UnsafeRawBufferPointer
  private let topics: MappedTable
  private let bookTopics: MappedLists
  private let languages: MappedTable
  private let bookLanguages: MappedLists
  private let mimeTypes: MappedTable
  private let bookMimeTypes: MappedLists
  private let strings: MappedTable
  private let records: MappedTable
  /// The vocabulary the index writer stored, nil in a version 2 file.
  let storedVocabulary: Vocabulary?
  /// The ranks, title tokens and posting lists, nil in a file older than version 4 (whose
  /// queries walk the columns).
  let postings: IndexPostings?

  /// Reads and checks the header and the section table; the sections are read when used.
  init(region: ByteRegion) throws(EngineError) {
    self.region = region
    let file = region.buffer
    func uint32(_ offset: Int) -> UInt32 {
      UInt32(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    func uint64(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    guard file.count >= IndexSection.headerSize, file.starts(with: IndexSection.magic) else {
      throw .badSnapshot("not a catalogue index")
    }
    let version = uint32(8)
    guard let sectionCount = IndexSection.sectionCount(version: version),
      uint32(12) == UInt32(sectionCount)
    else {
      throw .badSnapshot("unknown index version \(uint32(8)) with \(uint32(12)) sections")
    }
    let hasVocabulary = version >= IndexSection.versionWithoutPostings
    let hasPostings = version >= IndexSection.version
    let tableEnd = IndexSection.headerSize + IndexSection.entrySize * sectionCount
    guard file.count >= tableEnd else { throw .badSnapshot("truncated section table") }
    let books = Int(uint32(16))
    var sections: [UnsafeRawBufferPointer] = []
    var ranges: [Range<Int>] = []
    var widths: [Int] = []
    var checksums: [UInt32] = []
    for section in IndexSection.allCases.prefix(sectionCount) {
      let entry = IndexSection.headerSize + IndexSection.entrySize * section.rawValue
      let offset = uint64(entry)
      let length = uint64(entry + 8)
      guard offset <= UInt64(file.count), length <= UInt64(file.count) - offset else {
        throw .badSnapshot("section \(section) lies outside the file (truncated?)")
      }
      ranges.append(Int(offset)..<Int(offset + length))
      sections.append(UnsafeRawBufferPointer(rebasing: file[ranges[section.rawValue]]))
      widths.append(Int(uint32(entry + 16)))
      checksums.append(uint32(entry + 20))
    }
    try IndexCheck.layout(ranges, tableEnd: tableEnd, fileSize: file.count)
    func section(_ section: IndexSection) -> UnsafeRawBufferPointer { sections[section.rawValue] }
    func table(_ offsets: IndexSection, _ bytes: IndexSection) -> MappedTable {
      MappedTable(
        region: region, offsets: ranges[offsets.rawValue], bytes: ranges[bytes.rawValue])
    }
    func expect(_ section: IndexSection, _ length: Int) throws(EngineError) {
      guard sections[section.rawValue].count == length else {
        throw .badSnapshot("section \(section) has the wrong size")
      }
    }
    for fixed in [IndexSection.ids, .downloads, .popular] { try expect(fixed, 4 * books) }
    try expect(.copyright, books)
    for perBook in [
      IndexSection.titleOffsets, .bookAuthorOffsets, .bookTopicOffsets, .bookLanguageOffsets,
      .bookMimeTypeOffsets, .recordOffsets,
    ] {
      try expect(perBook, 4 * (books + 1))
    }
    for pool in [
      IndexSection.authorNameOffsets, .topicOffsets, .languageOffsets, .mimeTypeOffsets,
      .stringOffsets,
    ] {
      guard section(pool).count >= 4, section(pool).count % 4 == 0 else {
        throw .badSnapshot("section \(pool) has the wrong size")
      }
    }
    func lists(_ offsets: IndexSection, _ ids: IndexSection) throws(EngineError) -> MappedLists {
      let width = widths[ids.rawValue]
      guard [1, 2, 4].contains(width), section(ids).count % width == 0 else {
        throw .badSnapshot("section \(ids) has a bad width")
      }
      try IndexCheck.offsets(section(offsets), end: section(ids).count / width, offsets)
      return MappedLists(offsets: section(offsets), ids: section(ids), width: width)
    }
    var tables: [(IndexSection, IndexSection)] = [
      (.titleOffsets, .titles), (.authorNameOffsets, .authorNames), (.topicOffsets, .topics),
      (.languageOffsets, .languages), (.mimeTypeOffsets, .mimeTypes), (.stringOffsets, .strings),
      (.recordOffsets, .records),
    ]
    if hasVocabulary { tables += [(.wordOffsets, .words), (.accentKeyOffsets, .accentKeys)] }
    if hasPostings {
      try expect(.ranks, 4 * books)
      try expect(.lexicon, section(.wordCounts).count)
      tables.append((.tokenOffsets, .tokens))
      // A list per entry of its pool: the offsets have as many entries as the pool's.
      for (lists, pool) in [
        (IndexSection.tokenBookOffsets, IndexSection.tokenOffsets),
        (.nameBookOffsets, .authorNameOffsets), (.topicBookOffsets, .topicOffsets),
        (.languageBookOffsets, .languageOffsets), (.mimeTypeBookOffsets, .mimeTypeOffsets),
      ] {
        try expect(lists, section(pool).count)
      }
      for lists in PostingWriter.Kind.allCases.map(\.sections) {
        tables.append(lists)
        guard (1...4).contains(widths[lists.bytes.rawValue]) else {
          throw .badSnapshot("section \(lists.bytes) has a bad width")
        }
      }
    }
    for (offsets, bytes) in tables {
      try IndexCheck.offsets(section(offsets), end: section(bytes).count, offsets)
    }
    try IndexCheck.checksums(sections, checksums)
    try IndexCheck.columns(
      ids: section(.ids), downloads: section(.downloads), popular: section(.popular),
      ranks: hasPostings ? section(.ranks) : nil, books: books)
    bookCount = books
    hasSummaries = uint32(20) & IndexSection.summariesFlag != 0
    self.sections = sections
    self.checksums = checksums
    ids = section(.ids)
    downloads = section(.downloads)
    popularOrder = section(.popular)
    copyrights = section(.copyright)
    titles = table(.titleOffsets, .titles)
    authorNames = table(.authorNameOffsets, .authorNames)
    bookAuthors = try lists(.bookAuthorOffsets, .bookAuthors)
    authorYears = section(.authorYears)
    guard authorYears.count == 8 * bookAuthors.idCount else {
      throw .badSnapshot("section authorYears has the wrong size")
    }
    topics = table(.topicOffsets, .topics)
    bookTopics = try lists(.bookTopicOffsets, .bookTopics)
    languages = table(.languageOffsets, .languages)
    bookLanguages = try lists(.bookLanguageOffsets, .bookLanguages)
    mimeTypes = table(.mimeTypeOffsets, .mimeTypes)
    bookMimeTypes = try lists(.bookMimeTypeOffsets, .bookMimeTypes)
    strings = table(.stringOffsets, .strings)
    records = table(.recordOffsets, .records)
    storedVocabulary =
      hasVocabulary
      ? Vocabulary(
        region: region, ranges: IndexSection.vocabulary.map { ranges[$0.rawValue] },
        lexicon: hasPostings ? ranges[IndexSection.lexicon.rawValue] : nil)
      : nil
    func postingLists(_ kind: PostingWriter.Kind) -> PostingLists {
      let (offsets, bytes) = kind.sections
      return PostingLists(
        offsets: section(offsets), bytes: section(bytes), width: widths[bytes.rawValue],
        bookCount: books)
    }
    postings =
      hasPostings
      ? IndexPostings(
        ranks: section(.ranks), tokens: table(.tokenOffsets, .tokens),
        tokenBooks: postingLists(.token), nameBooks: postingLists(.name),
        topicBooks: postingLists(.topic), languageBooks: postingLists(.language),
        mimeTypeBooks: postingLists(.mimeType))
      : nil
  }

  /// Compares every section with its CRC-32 (reads the whole file; opening checks only the
  /// small ones, see ``IndexCheck``).
  func verifyChecksums() throws(EngineError) {
    for (section, bytes) in zip(IndexSection.allCases.prefix(sections.count), sections)
    where CatalogueSnapshot.checksum(bytes) != checksums[section.rawValue] {
      throw .badSnapshot("section \(section) fails its checksum")
    }
  }

  /// Every check there is: each section's checksum, then every book decoded from its record
  /// (what `gutenberg doctor` runs; a query would meet a damaged record only when it reaches
  /// that book).
  func verify() throws(EngineError) {
    try verifyChecksums()
    for position in 0..<bookCount {
      _ = try record(
        at: position, bytes: Array(records.mappedEntry(position)),
        string: { String(decoding: strings.mappedEntry($0), as: UTF8.self) },
        stringBytes: { Array(strings.mappedEntry($0)) })
    }
  }

  private static func int32(_ buffer: UnsafeRawBufferPointer, _ index: Int) -> Int {
    Int(Int32(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 4, as: Int32.self)))
  }

  func id(at position: Int) -> Int { Self.int32(ids, position) }

  func position(of id: Int) -> Int32? {
    // Binary search over the ascending ids.
    var low = 0
    var high = bookCount
    while low < high {
      let middle = (low + high) / 2
      let value = Self.int32(ids, middle)
      if value == id { return Int32(middle) }
      if value < id { low = middle + 1 } else { high = middle }
    }
    return nil
  }

  func downloadCount(at position: Int) -> Int { Self.int32(downloads, position) }

  func copyright(at position: Int) -> Bool? {
    switch copyrights[position] {
    case 0: false
    case 1: true
    default: nil
    }
  }

  func popular(_ rank: Int) -> Int32? {
    let position = Self.int32(popularOrder, rank)
    return position >= 0 && position < bookCount ? Int32(position) : nil
  }

  func hasAuthors(at position: Int) -> Bool { !bookAuthors.isEmpty(position) }

  func anyAuthor(at position: Int, _ test: (Int?, Int?) -> Bool) -> Bool {
    bookAuthors.range(position).contains { entry in
      let birth = Self.int32(authorYears, 2 * entry)
      let death = Self.int32(authorYears, 2 * entry + 1)
      let null = Int(IndexSection.nullYear)
      return test(birth == null ? nil : birth, death == null ? nil : death)
    }
  }

  func titleFlags(containing needle: [UInt8]) -> [Bool] {
    var flags = titles.entries(containing: needle)
    // A damaged table could have fewer entries than books: those never match.
    if flags.count < bookCount { flags += repeatElement(false, count: bookCount - flags.count) }
    return flags
  }

  func authorNameFlags(containing needle: [UInt8]) -> [Bool] {
    authorNames.entries(containing: needle)
  }

  func topicFlags(containing needle: [UInt8]) -> [Bool] { topics.entries(containing: needle) }

  var languageCodes: [String] { (0..<languages.count).map(languages.string) }

  func languageFlags(codes: [String]) -> [Bool] {
    let wanted = codes.map { Array($0.utf8) }
    return (0..<languages.count).map { index in
      let code = languages.entry(index)
      return wanted.contains { $0.elementsEqual(code) }
    }
  }

  func mimeTypeFlags(prefix: [UInt8]) -> [Bool] {
    (0..<mimeTypes.count).map { mimeTypes.entry($0).starts(with: prefix) }
  }

  func anyAuthorName(at position: Int, in flags: [Bool]) -> Bool {
    bookAuthors.any(position, in: flags)
  }
  func hasTopics(at position: Int) -> Bool { !bookTopics.isEmpty(position) }
  func anyTopic(at position: Int, in flags: [Bool]) -> Bool { bookTopics.any(position, in: flags) }
  func anyLanguage(at position: Int, in flags: [Bool]) -> Bool {
    bookLanguages.any(position, in: flags)
  }
  func anyMimeType(at position: Int, in flags: [Bool]) -> Bool {
    bookMimeTypes.any(position, in: flags)
  }

  func forEachMatchedText(_ body: (UnsafeRawBufferPointer) -> Void) {
    for table in [titles, authorNames, topics] { table.forEachEntry(body) }
  }

  /// Decodes the book at `position` from its record and the fixed columns.
  func record(at position: Int) throws(EngineError) -> BookRecord {
    try record(
      at: position, bytes: records.entry(position), string: strings.string,
      stringBytes: strings.entry)
  }

  /// Every book, in id order, read through the mapping with each pool string decoded once
  /// (for rebuilding the index: `pread` per entry would cost millions of system calls).
  func allRecords() throws(EngineError) -> [BookRecord] {
    var cache = [String?](repeating: nil, count: strings.count)
    var result: [BookRecord] = []
    result.reserveCapacity(bookCount)
    for position in 0..<bookCount {
      result.append(
        try record(
          at: position, bytes: Array(records.mappedEntry(position)),
          string: { index in
            if let known = cache[index] { return known }
            let decoded = String(decoding: strings.mappedEntry(index), as: UTF8.self)
            cache[index] = decoded
            return decoded
          },
          stringBytes: { Array(strings.mappedEntry($0)) }))
    }
    return result
  }

  /// Calls `body` with every book (each position `wanted` accepts), in id order, decoded one at
  /// a time: the records are read with `pread` a megabyte of whole entries at a time (not
  /// through the mapping, whose pages would stay resident), the string table once, each of its
  /// strings decoded once. What is held is the table, not the books (for writing another index
  /// from this one, or ranking a refresh's arrivals).
  func forEachRecord(
    where wanted: (Int) -> Bool = { _ in true }, _ body: (BookRecord) throws -> Void
  ) throws {
    let pool = region.read(strings.bytes)
    var cache = [String?](repeating: nil, count: strings.count)
    func poolBytes(_ index: Int) -> ArraySlice<UInt8> {
      let start = min(strings.offset(index), pool.count)
      return pool[start..<min(max(start, strings.offset(index + 1)), pool.count)]
    }
    var first = 0
    while first < bookCount {
      let start = records.offset(first)
      var last = first + 1
      while last < bookCount, records.offset(last + 1) - start <= 1 << 20 { last += 1 }
      let end = max(start, records.offset(last))
      let piece = region.read((records.bytes.lowerBound + start)..<(records.bytes.lowerBound + end))
      for position in first..<last where wanted(position) {
        let from = min(max(0, records.offset(position) - start), piece.count)
        let to = min(max(from, records.offset(position + 1) - start), piece.count)
        try body(
          try record(
            at: position, bytes: Array(piece[from..<to]),
            string: { index in
              if let known = cache[index] { return known }
              let decoded = String(decoding: poolBytes(index), as: UTF8.self)
              cache[index] = decoded
              return decoded
            },
            stringBytes: { Array(poolBytes($0)) }))
      }
      first = last
    }
  }

  /// Decodes the book at `position` from its record's bytes, with pool strings from `string`
  /// (and raw, for URL templates, from `stringBytes`).
  private func record(
    at position: Int, bytes: [UInt8], string pool: (Int) -> String,
    stringBytes: (Int) -> [UInt8]
  ) throws(EngineError) -> BookRecord {
    var source = ByteSource(bytes)
    let stringCount = strings.count
    func string() throws(EngineError) -> String {
      pool(try source.index(below: stringCount))
    }
    func people() throws(EngineError) -> [PersonRecord] {
      let count = try source.index(below: IndexLimits.listCount + 1)
      var list: [PersonRecord] = []
      list.reserveCapacity(count)
      for _ in 0..<count {
        let name = try string()
        let birth = try year()
        list.append(PersonRecord(name: name, birthYear: birth, deathYear: try year()))
      }
      return list
    }
    // A year the writer could not have stored is damage, not a book.
    func year() throws(EngineError) -> Int? {
      let year = try source.optionalSigned()
      guard year.map(IndexLimits.years.contains) ?? true else {
        throw .badSnapshot("a year out of range in book \(id(at: position))")
      }
      return year
    }
    func stringList() throws(EngineError) -> [String] {
      let count = try source.index(below: IndexLimits.listCount + 1)
      var list: [String] = []
      list.reserveCapacity(count)
      for _ in 0..<count { list.append(try string()) }
      return list
    }
    let title = String(decoding: source.bytes[try source.block()], as: UTF8.self)
    let authors = try people()
    let editors = try people()
    let translators = try people()
    let subjects = try stringList()
    let shelves = try stringList()
    let codes = try stringList()
    let mediaType = try string()
    let formatCount = try source.index(below: IndexLimits.listCount + 1)
    var formats: [FormatEntry] = []
    formats.reserveCapacity(formatCount)
    for _ in 0..<formatCount {
      let mime = try string()
      let url = stringBytes(try source.index(below: stringCount))
      formats.append(
        FormatEntry(
          mime: mime, url: String(decoding: url, as: UTF8.self),
          hasIDSlots: url.contains(BookRecord.idSlot)))
    }
    var summaries: [String] = []
    if hasSummaries {
      let count = try source.index(below: IndexLimits.listCount + 1)
      for _ in 0..<count {
        summaries.append(String(decoding: source.bytes[try source.block()], as: UTF8.self))
      }
    }
    return BookRecord(
      id: id(at: position), title: title, authors: authors, summaries: summaries, editors: editors,
      translators: translators, subjects: subjects, bookshelves: shelves, languages: codes,
      copyright: copyright(at: position), mediaType: mediaType, formats: formats,
      downloadCount: downloadCount(at: position))
  }
}
