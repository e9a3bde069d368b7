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
}

extension BookIndex {
  /// Builds the index over records already sorted by id.
  init(records: [BookRecord]) {
    var builder = Builder()
    for record in records { builder.add(record) }
    self = builder.build()
  }

  /// The index built one record at a time, in id order (``StreamedIndex`` never holds every
  /// record at once; ``init(records:)`` gives them all).
  struct Builder {
    private(set) var ids: [Int] = []
    private(set) var downloads: [Int] = []
    private var titles = ByteTable()
    private var authorNames = StringPool()
    private var bookAuthors = IDLists()
    private var topics = StringPool()
    private var bookTopics = IDLists()
    private var languages = StringPool()
    private var bookLanguages = IDLists()
    private var mimeTypes = StringPool()
    private var bookMimeTypes = IDLists()

    /// Adds the next record (its id above the last one's).
    mutating func add(_ record: BookRecord) {
      ids.append(record.id)
      downloads.append(record.downloadCount)
      titles.append(ByteTable.fold(record.title))
      bookAuthors.append(record.authors.map { authorNames.intern($0.name) })
      bookTopics.append((record.subjects + record.bookshelves).map { topics.intern($0) })
      bookLanguages.append(record.languages.map { languages.intern($0) })
      bookMimeTypes.append(record.formats.map { mimeTypes.intern($0.mime) })
    }

    func build() -> BookIndex {
      var positions: [Int: Int32] = [:]
      positions.reserveCapacity(ids.count)
      for (position, id) in ids.enumerated() { positions[id] = Int32(position) }
      let downloads = downloads
      // Records are in id order, so the position breaks ties by id.
      let byDownloads = (0..<Int32(ids.count)).sorted { left, right in
        let a = downloads[Int(left)]
        let b = downloads[Int(right)]
        return a != b ? a > b : left < right
      }
      return BookIndex(
        byDownloads: byDownloads, positions: positions, titles: titles,
        authorNames: authorNames, bookAuthors: bookAuthors, topics: topics, bookTopics: bookTopics,
        languages: languages, bookLanguages: bookLanguages, mimeTypes: mimeTypes,
        bookMimeTypes: bookMimeTypes)
    }
  }
}
