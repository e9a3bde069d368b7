/// The list filters of a request, read the way the server's `get_queryset` reads them.
struct BookFilter: Sendable {
  /// The order of results.
  enum Order: Sendable {
    /// `sort=ascending`: by id.
    case ascending
    /// `sort=descending`: by id, highest first.
    case descending
    /// Anything else: by download count, highest first; equal counts by id ascending (the
    /// server has no tiebreak, so this is the engine's deterministic choice).
    case popular
  }

  /// Upper-folded (``UpperFold``) `search` terms (split on single spaces, at most 32); nil when absent.
  var searchTerms: [[UInt8]]?
  /// Lower-cased `languages` codes; nil when absent.
  var languages: [String]?
  /// Upper-folded `topic`; nil when absent.
  var topic: [UInt8]?
  var authorYearStart: Int?
  var authorYearEnd: Int?
  /// The accepted `copyright` values (`nil` stands for null); nil when absent.
  var copyright: Set<Bool?>?
  var ids: Set<Int>?
  var mimeType: [UInt8]?
  var order: Order = .popular

  init(query: QueryString) {
    if let search = query.value("search") {
      searchTerms = search.split(separator: " ", omittingEmptySubsequences: false).prefix(32)
        .map { ByteTable.fold(String($0)) }
    }
    if let languages = query.value("languages") {
      self.languages = languages.split(separator: ",", omittingEmptySubsequences: false)
        .map { $0.lowercased() }
    }
    if let topic = query.value("topic") { self.topic = ByteTable.fold(topic) }
    authorYearStart = query.value("author_year_start").flatMap(PythonInt.parse)
    authorYearEnd = query.value("author_year_end").flatMap(PythonInt.parse)
    if let copyright = query.value("copyright") {
      var values: Set<Bool?> = []
      for token in copyright.split(separator: ",", omittingEmptySubsequences: false) {
        switch token {
        case "true": values.insert(true)
        case "false": values.insert(false)
        case "null": values.insert(nil)
        default: break
        }
      }
      self.copyright = values
    }
    if let ids = query.value("ids") {
      let parsed = ids.split(separator: ",", omittingEmptySubsequences: false)
        .map { PythonInt.parse(String($0)) }
      if parsed.allSatisfy({ $0 != nil }) { self.ids = Set(parsed.compactMap { $0 }) }
    }
    if let mimeType = query.value("mime_type") { self.mimeType = Array(mimeType.utf8) }
    switch query.value("sort") {
    case "ascending": order = .ascending
    case "descending": order = .descending
    default: order = .popular
    }
  }

  /// Positions of the matching books, in the requested order; only the book `only` is
  /// considered when it is given (the detail view filters the same queryset).
  func positions<Columns: BookColumns>(in books: Columns, only: Int? = nil) -> [Int32] {
    let languageFlags = languages.map { books.languageFlags(codes: $0) }
    let mimeFlags = mimeType.map { books.mimeTypeFlags(prefix: $0) }
    let topicFlags = topic.map { books.topicFlags(containing: $0) }
    // Per term: which titles contain it, and which author names.
    let termFlags = searchTerms.map { terms in
      terms.map {
        (titles: books.titleFlags(containing: $0), names: books.authorNameFlags(containing: $0))
      }
    }

    func matches(_ position: Int) -> Bool {
      if let ids, !ids.contains(books.id(at: position)) { return false }
      if let languageFlags, !books.anyLanguage(at: position, in: languageFlags) { return false }
      if let mimeFlags, !books.anyMimeType(at: position, in: mimeFlags) { return false }
      if !passesColumnTests(at: position, in: books) { return false }
      if let topicFlags {
        if !books.hasTopics(at: position) || !books.anyTopic(at: position, in: topicFlags) {
          return false
        }
      }
      if let termFlags {
        for flags in termFlags
        where !flags.titles[position] && !books.anyAuthorName(at: position, in: flags.names) {
          return false
        }
      }
      return true
    }

    if let only {
      guard let position = books.position(of: only), matches(Int(position)) else { return [] }
      return [position]
    }
    if let ids {
      // Few candidates: look them up instead of scanning every book.
      var candidates = Set(ids.compactMap { books.position(of: $0) }).filter { matches(Int($0)) }
        .sorted()
      switch order {
      case .ascending: break
      case .descending: candidates.reverse()
      case .popular:
        candidates.sort { left, right in
          let a = books.downloadCount(at: Int(left))
          let b = books.downloadCount(at: Int(right))
          return a != b ? a > b : left < right
        }
      }
      return candidates
    }
    var result: [Int32] = []
    switch order {
    case .ascending:
      for position in 0..<books.bookCount where matches(position) { result.append(Int32(position)) }
    case .descending:
      for position in (0..<books.bookCount).reversed() where matches(position) {
        result.append(Int32(position))
      }
    case .popular:
      for rank in 0..<books.bookCount {
        if let position = books.popular(rank), matches(Int(position)) { result.append(position) }
      }
    }
    return result
  }

  /// Whether any tests of the columns of the book at `position` are on it: the copyright and
  /// the author years, which no posting list answers.
  var hasColumnTests: Bool {
    copyright != nil || authorYearStart != nil || authorYearEnd != nil
  }

  /// Whether the book at `position` passes the tests of its columns (copyright, author years).
  func passesColumnTests(at position: Int, in books: some BookColumns) -> Bool {
    if let copyright, !copyright.contains(books.copyright(at: position)) { return false }
    if authorYearStart != nil || authorYearEnd != nil {
      if !books.hasAuthors(at: position) { return false }
      // Two independent conditions: different authors may satisfy start and end.
      if let start = authorYearStart,
        !books.anyAuthor(
          at: position, { birth, death in Self.year(birth, death) { $0 >= start } })
      {
        return false
      }
      if let end = authorYearEnd,
        !books.anyAuthor(at: position, { birth, death in Self.year(birth, death) { $0 <= end } })
      {
        return false
      }
    }
    return true
  }

  /// True when the birth or the death year is known and passes `test` (SQL: null never does).
  private static func year(_ birth: Int?, _ death: Int?, _ test: (Int) -> Bool) -> Bool {
    if let birth, test(birth) { return true }
    if let death, test(death) { return true }
    return false
  }
}
