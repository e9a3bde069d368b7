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

  /// Lower-cased `search` terms (split on single spaces, at most 32); nil when absent.
  var searchTerms: [[UInt8]]?
  /// Lower-cased `languages` codes; nil when absent.
  var languages: [String]?
  /// Lower-cased `topic`; nil when absent.
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
  func positions(records: [BookRecord], index: BookIndex, only: Int? = nil) -> [Int32] {
    let languageFlags = languages.map { codes in
      var flags = [Bool](repeating: false, count: index.languages.count)
      for code in codes {
        if let id = index.languages.id(of: code) { flags[Int(id)] = true }
      }
      return flags
    }
    let mimeFlags = mimeType.map { prefix in
      index.mimeTypes.strings.map { Array($0.utf8).starts(with: prefix) }
    }
    let topicFlags = topic.map { index.topics.containing($0) }
    let termFlags = searchTerms.map { terms in terms.map { index.authorNames.containing($0) } }

    func matches(_ position: Int) -> Bool {
      // Fields are read one by one: copying the whole record would retain all its arrays.
      if let ids, !ids.contains(records[position].id) { return false }
      if let copyright, !copyright.contains(records[position].copyright) { return false }
      if let languageFlags, !index.bookLanguages.any(position, in: languageFlags) { return false }
      if let mimeFlags, !index.bookMimeTypes.any(position, in: mimeFlags) { return false }
      if authorYearStart != nil || authorYearEnd != nil {
        let authors = records[position].authors
        if authors.isEmpty { return false }
        // Two independent conditions: different authors may satisfy start and end.
        if let start = authorYearStart,
          !authors.contains(where: { Self.year($0.birthYear, $0.deathYear) { $0 >= start } })
        {
          return false
        }
        if let end = authorYearEnd,
          !authors.contains(where: { Self.year($0.birthYear, $0.deathYear) { $0 <= end } })
        {
          return false
        }
      }
      if let topicFlags {
        if index.bookTopics.isEmpty(position) || !index.bookTopics.any(position, in: topicFlags) {
          return false
        }
      }
      if let searchTerms, let termFlags {
        for (term, flags) in zip(searchTerms, termFlags)
        where !index.titles.contains(term, at: position)
          && !index.bookAuthors.any(position, in: flags)
        {
          return false
        }
      }
      return true
    }

    if let only {
      guard let position = index.positions[only], matches(Int(position)) else { return [] }
      return [position]
    }
    if let ids {
      // Few candidates: look them up instead of scanning every book.
      var candidates = Set(ids.compactMap { index.positions[$0] }).filter { matches(Int($0)) }
        .sorted()
      switch order {
      case .ascending: break
      case .descending: candidates.reverse()
      case .popular:
        candidates.sort { left, right in
          let a = records[Int(left)].downloadCount
          let b = records[Int(right)].downloadCount
          return a != b ? a > b : left < right
        }
      }
      return candidates
    }
    var result: [Int32] = []
    switch order {
    case .ascending:
      for position in 0..<records.count where matches(position) { result.append(Int32(position)) }
    case .descending:
      for position in (0..<records.count).reversed() where matches(position) {
        result.append(Int32(position))
      }
    case .popular:
      for position in index.byDownloads where matches(Int(position)) { result.append(position) }
    }
    return result
  }

  /// True when the birth or the death year is known and passes `test` (SQL: null never does).
  private static func year(_ birth: Int?, _ death: Int?, _ test: (Int) -> Bool) -> Bool {
    if let birth, test(birth) { return true }
    if let death, test(death) { return true }
    return false
  }
}
