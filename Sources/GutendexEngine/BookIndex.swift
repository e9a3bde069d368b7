/// What the engine precomputes at load so a query is a few cheap passes over flat arrays.
struct BookIndex: Sendable {
  /// Book positions (into the id-ordered records) by download count descending, then id.
  let byDownloads: [Int32]
  /// Position of each Project Gutenberg id.
  let positions: [Int: Int32]
  /// Upper-folded titles (``UpperFold``), one per book.
  let titles: ByteTable
  let authorNames: StringPool
  let bookAuthors: IDLists
  /// Subjects and bookshelves together: `topic` matches either.
  let topics: StringPool
  let bookTopics: IDLists
  let languages: StringPool
  let bookLanguages: IDLists
  let mimeTypes: StringPool
  let bookMimeTypes: IDLists

  /// Builds the index over records already sorted by id.
  init(records: [BookRecord]) {
    var positions: [Int: Int32] = [:]
    positions.reserveCapacity(records.count)
    var titles = ByteTable()
    var authorNames = StringPool()
    var bookAuthors = IDLists()
    var topics = StringPool()
    var bookTopics = IDLists()
    var languages = StringPool()
    var bookLanguages = IDLists()
    var mimeTypes = StringPool()
    var bookMimeTypes = IDLists()
    for (position, record) in records.enumerated() {
      positions[record.id] = Int32(position)
      titles.append(ByteTable.fold(record.title))
      bookAuthors.append(record.authors.map { authorNames.intern($0.name) })
      bookTopics.append((record.subjects + record.bookshelves).map { topics.intern($0) })
      bookLanguages.append(record.languages.map { languages.intern($0) })
      bookMimeTypes.append(record.formats.map { mimeTypes.intern($0.mime) })
    }
    let downloads = records.map(\.downloadCount)
    // Records are in id order, so the position breaks ties by id.
    byDownloads = (0..<Int32(records.count)).sorted { left, right in
      let a = downloads[Int(left)]
      let b = downloads[Int(right)]
      return a != b ? a > b : left < right
    }
    self.positions = positions
    self.titles = titles
    self.authorNames = authorNames
    self.bookAuthors = bookAuthors
    self.topics = topics
    self.bookTopics = bookTopics
    self.languages = languages
    self.bookLanguages = bookLanguages
    self.mimeTypes = mimeTypes
    self.bookMimeTypes = bookMimeTypes
  }
}
