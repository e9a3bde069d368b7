/// Books decoded into memory, with the index built over them at load.
struct RecordColumns: BookColumns, Sendable {
  /// The books, sorted by id.
  let records: [BookRecord]
  let index: BookIndex

  init(sortedRecords records: [BookRecord]) {
    self.records = records
    index = BookIndex(records: records)
  }

  var bookCount: Int { records.count }
  func id(at position: Int) -> Int { records[position].id }
  func position(of id: Int) -> Int32? { index.positions[id] }
  func downloadCount(at position: Int) -> Int { records[position].downloadCount }
  func copyright(at position: Int) -> Bool? { records[position].copyright }
  func popular(_ rank: Int) -> Int32? { index.byDownloads[rank] }

  // Fields are read one by one: copying the whole record would retain all its arrays.
  func hasAuthors(at position: Int) -> Bool { !records[position].authors.isEmpty }
  func anyAuthor(at position: Int, _ test: (Int?, Int?) -> Bool) -> Bool {
    records[position].authors.contains { test($0.birthYear, $0.deathYear) }
  }

  func titleFlags(containing needle: [UInt8]) -> [Bool] { index.titles.entries(containing: needle) }
  func authorNameFlags(containing needle: [UInt8]) -> [Bool] {
    index.authorNames.folded.entries(containing: needle)
  }
  func topicFlags(containing needle: [UInt8]) -> [Bool] {
    index.topics.folded.entries(containing: needle)
  }
  var languageCodes: [String] { index.languages.strings }

  func languageFlags(codes: [String]) -> [Bool] {
    var flags = [Bool](repeating: false, count: index.languages.count)
    for code in codes {
      if let id = index.languages.id(of: code) { flags[Int(id)] = true }
    }
    return flags
  }
  func mimeTypeFlags(prefix: [UInt8]) -> [Bool] {
    index.mimeTypes.strings.map { Array($0.utf8).starts(with: prefix) }
  }

  func anyAuthorName(at position: Int, in flags: [Bool]) -> Bool {
    index.bookAuthors.any(position, in: flags)
  }
  func hasTopics(at position: Int) -> Bool { !index.bookTopics.isEmpty(position) }
  func anyTopic(at position: Int, in flags: [Bool]) -> Bool {
    index.bookTopics.any(position, in: flags)
  }
  func anyLanguage(at position: Int, in flags: [Bool]) -> Bool {
    index.bookLanguages.any(position, in: flags)
  }
  func anyMimeType(at position: Int, in flags: [Bool]) -> Bool {
    index.bookMimeTypes.any(position, in: flags)
  }

  func forEachMatchedText(_ body: (UnsafeRawBufferPointer) -> Void) {
    for table in [index.titles, index.authorNames.folded, index.topics.folded] {
      table.forEachEntry(body)
    }
  }

  func record(at position: Int) -> BookRecord { records[position] }
}
