/// A list query answered from a version 4 index's posting lists and popular order, over the
/// base and the delta, without visiting every book: each filter is a union of the lists of the
/// entries it matches (tokens and author names for a search term, languages, topics, MIME
/// types), the filters are intersected, and a page is found by merging only the part of the
/// two layers' orders it needs. The count and the books are those ``BookFilter`` finds by
/// walking the columns (`GutendexEngine+Layering.swift`), which older files still use.
struct IndexedQuery {
  let filter: BookFilter
  let base: MappedCatalogue
  let delta: MappedCatalogue?
  let shadow: Shadow

  /// The base's books the delta holds a copy of: their positions and ranks, each ascending.
  /// Every query leaves them out of the base's books (the delta's copy answers instead).
  struct Shadow: Sendable {
    let positions: [Int32]
    let ranks: [Int32]

    static let none = Shadow(positions: [], ranks: [])

    /// The base books `delta` replaces (two binary searches a delta book).
    init(base: MappedCatalogue, delta: MappedCatalogue?) {
      var positions: [Int32] = []
      if let delta {
        for position in 0..<delta.bookCount {
          if let held = base.position(of: delta.id(at: position)) { positions.append(held) }
        }
      }
      positions.sort()
      self.positions = positions
      if let postings = base.postings {
        ranks = positions.map { Int32(postings.rank(Int($0))) }.sorted()
      } else {
        ranks = []
      }
    }

    private init(positions: [Int32], ranks: [Int32]) {
      self.positions = positions
      self.ranks = ranks
    }

    /// Whether the base book at `position` is replaced.
    func contains(position: Int) -> Bool {
      let index = Self.countBelow(positions, position)
      return index < positions.count && Int(positions[index]) == position
    }

    /// How many of `sorted` are below `value`.
    static func countBelow(_ sorted: [Int32], _ value: Int) -> Int {
      var low = 0
      var high = sorted.count
      while low < high {
        let middle = (low + high) / 2
        if Int(sorted[middle]) < value { low = middle + 1 } else { high = middle }
      }
      return low
    }

    /// The `index`th number of `0...` that is not in `sorted` (ascending, distinct).
    static func skipping(_ sorted: [Int32], _ index: Int) -> Int {
      var value = index
      // The least fixed point of value = index + |{s ≤ value}|: each step jumps over the
      // replaced values met so far.
      while true {
        let next = index + countBelow(sorted, value + 1)
        if next == value { return value }
        value = next
      }
    }
  }

  // MARK: - Matching

  /// The books of `books` (one layer) the filter finds.
  static func matches(_ filter: BookFilter, in books: MappedCatalogue) -> BookSet {
    let count = books.bookCount
    guard let postings = books.postings else {
      // A layer written before version 4 (a delta synced by an older version): walked.
      return .positions(filter.positions(in: books), bookCount: count)
    }
    var set = BookSet.all(count)
    func narrow(_ next: @autoclosure () -> BookSet) {
      guard set.count > 0 else { return }
      set = set.intersection(next())
    }
    func lists(_ flags: [Bool], _ lists: PostingLists) -> [PostingList] {
      flags.indices.compactMap { flags[$0] ? lists.list($0) : nil }
    }
    if let ids = filter.ids {
      narrow(.positions(ids.compactMap { books.position(of: $0) }, bookCount: count))
    }
    if let codes = filter.languages {
      narrow(
        .union(lists(books.languageFlags(codes: codes), postings.languageBooks), bookCount: count))
    }
    if let prefix = filter.mimeType {
      narrow(
        .union(lists(books.mimeTypeFlags(prefix: prefix), postings.mimeTypeBooks), bookCount: count)
      )
    }
    if let topic = filter.topic {
      narrow(
        .union(lists(books.topicFlags(containing: topic), postings.topicBooks), bookCount: count))
    }
    for term in filter.searchTerms ?? [] where !term.isEmpty {
      // The titles that hold the term: those of the tokens that hold it (a term with a space
      // in it, which splitting on spaces never gives, is looked for in the titles).
      let names = lists(books.authorNameFlags(containing: term), postings.nameBooks)
      if term.contains(0x20) {
        narrow(
          .flags(books.titleFlags(containing: term), bookCount: count)
            .union(.union(names, bookCount: count)))
      } else {
        narrow(
          .union(
            lists(postings.tokens.entries(containing: term), postings.tokenBooks) + names,
            bookCount: count))
      }
    }
    if filter.hasColumnTests, set.count > 0 {
      set = set.filter { filter.passesColumnTests(at: $0, in: books) }
    }
    return set
  }

  // MARK: - Counting and paging

  /// How many books the query finds over both layers.
  func count() -> Int { prepare().count }

  /// The query's matches in each layer and their count, ready to page.
  func prepare() -> Prepared {
    let baseSet = Self.matches(filter, in: base)
    let deltaSet = delta.map { Self.matches(filter, in: $0) }
    let replaced = shadow.positions.count { baseSet.contains(Int($0)) }
    return Prepared(
      query: self, baseSet: baseSet, deltaSet: deltaSet,
      count: baseSet.count - replaced + (deltaSet?.count ?? 0))
  }

  /// A query's matches, counted.
  struct Prepared {
    let query: IndexedQuery
    let baseSet: BookSet
    let deltaSet: BookSet?
    /// How many books the query finds over both layers.
    let count: Int

    /// The results in `range` (in the filter's order; past the end, what there is), as hits
    /// of either layer.
    func hits(_ range: Range<Int>) -> [GutendexEngine.Hit] {
      let start = min(range.lowerBound, count)
      let end = min(range.upperBound, count)
      guard start < end else { return [] }
      var left = BaseOrder(query: query, set: baseSet)
      return query.merge(&left, query.deltaOrder(deltaSet), start: start, count: end - start)
    }
  }

  /// The delta's matches in the filter's order (the delta is small: they are listed).
  fileprivate func deltaOrder(_ set: BookSet?) -> [Int32] {
    guard let delta, let set else { return [] }
    let ascending = set.ascending
    switch filter.order {
    case .ascending: return ascending
    case .descending: return ascending.reversed()
    case .popular:
      if let postings = delta.postings {
        return ascending.sorted { postings.rank(Int($0)) < postings.rank(Int($1)) }
      }
      return ascending.sorted { left, right in
        let a = delta.downloadCount(at: Int(left))
        let b = delta.downloadCount(at: Int(right))
        return a != b ? a > b : left < right
      }
    }
  }

  /// Whether the base book at `basePosition` comes before the delta book at `deltaPosition`
  /// in the filter's order (ids are never equal: the delta's copies replace the base's).
  private func basePrecedes(_ basePosition: Int32, _ deltaPosition: Int32) -> Bool {
    guard let delta else { return true }
    let baseID = base.id(at: Int(basePosition))
    let deltaID = delta.id(at: Int(deltaPosition))
    switch filter.order {
    case .ascending: return baseID < deltaID
    case .descending: return baseID > deltaID
    case .popular:
      let a = base.downloadCount(at: Int(basePosition))
      let b = delta.downloadCount(at: Int(deltaPosition))
      return a != b ? a > b : baseID < deltaID
    }
  }

  /// The base's matches (less the replaced books) in the filter's order: read at any index
  /// when that is cheap (every book, or a few listed), else walked from the start (many books
  /// in the popular order, whose walk stops at the page).
  fileprivate struct BaseOrder {
    enum Kind {
      /// Every book: the popular order, or positions, skipping the replaced ones.
      case all(order: BookFilter.Order)
      /// The matches, listed in order.
      case listed([Int32])
      /// The popular order walked, keeping the matches.
      case walk(BookSet, rank: Int)
    }

    var kind: Kind
    /// How many there are.
    let count: Int
    let query: IndexedQuery

    init(query: IndexedQuery, set: BookSet) {
      self.query = query
      let base = query.base
      let shadow = query.shadow
      let replaced = shadow.positions.count { set.contains(Int($0)) }
      count = set.count - replaced
      if case .all = set.storage {
        kind = .all(order: query.filter.order)
        return
      }
      let order = query.filter.order
      // Many books in the popular order: sorting them by rank would cost more than walking
      // the order up to the page.
      if order == .popular, set.count > max(1024, base.bookCount / 16) {
        kind = .walk(set, rank: 0)
        return
      }
      var listed = set.ascending
      if !shadow.positions.isEmpty {
        listed.removeAll { shadow.contains(position: Int($0)) }
      }
      switch order {
      case .ascending: break
      case .descending: listed.reverse()
      case .popular:
        if let postings = base.postings {
          listed.sort { postings.rank(Int($0)) < postings.rank(Int($1)) }
        }
      }
      kind = .listed(listed)
    }

    /// Whether ``element(_:)`` is cheap.
    var isRandomAccess: Bool {
      if case .walk = kind { return false }
      return true
    }

    /// The `index`th match (random-access kinds only).
    func element(_ index: Int) -> Int32 {
      switch kind {
      case .listed(let listed): return listed[index]
      case .all(let order):
        let shadow = query.shadow
        switch order {
        case .ascending: return Int32(Shadow.skipping(shadow.positions, index))
        case .descending: return Int32(Shadow.skipping(shadow.positions, count - 1 - index))
        case .popular:
          let rank = Shadow.skipping(shadow.ranks, index)
          return query.base.popular(rank) ?? 0
        }
      case .walk: preconditionFailure("a walk has no random access")
      }
    }

    /// The next match of a walk, nil at its end.
    mutating func next() -> Int32? {
      guard case .walk(let set, var rank) = kind else { return nil }
      defer { kind = .walk(set, rank: rank) }
      let base = query.base
      while rank < base.bookCount {
        let position = base.popular(rank)
        rank += 1
        guard let position, set.contains(Int(position)),
          !query.shadow.contains(position: Int(position))
        else { continue }
        return position
      }
      return nil
    }
  }

  /// `count` results from the `start`th of the base's order merged with the delta's.
  fileprivate func merge(
    _ left: inout BaseOrder, _ right: [Int32], start: Int, count: Int
  ) -> [GutendexEngine.Hit] {
    var hits: [GutendexEngine.Hit] = []
    hits.reserveCapacity(count)
    var baseIndex = 0
    var deltaIndex = 0
    var pendingBase: Int32?
    if left.isRandomAccess {
      // How many delta books come before the start: those whose place in the merged order
      // (their own index plus the base books before them) is below it.
      func baseBefore(_ deltaPosition: Int32) -> Int {
        var low = 0
        var high = left.count
        while low < high {
          let middle = (low + high) / 2
          if basePrecedes(left.element(middle), deltaPosition) {
            low = middle + 1
          } else {
            high = middle
          }
        }
        return low
      }
      var low = 0
      var high = right.count
      while low < high {
        let middle = (low + high) / 2
        if middle + baseBefore(right[middle]) < start { low = middle + 1 } else { high = middle }
      }
      deltaIndex = low
      baseIndex = start - low
    }
    func nextBase() -> Int32? {
      if let held = pendingBase { return held }
      if left.isRandomAccess {
        pendingBase = baseIndex < left.count ? left.element(baseIndex) : nil
      } else {
        pendingBase = left.next()
      }
      return pendingBase
    }
    // A walk from the first result skips to the start; random access begins there.
    var skip = left.isRandomAccess ? 0 : start
    while hits.count < count {
      let candidate = nextBase()
      let fromDelta: Bool
      if let candidate, deltaIndex < right.count {
        fromDelta = !basePrecedes(candidate, right[deltaIndex])
      } else if candidate != nil {
        fromDelta = false
      } else if deltaIndex < right.count {
        fromDelta = true
      } else {
        break
      }
      let hit: GutendexEngine.Hit
      if fromDelta {
        hit = GutendexEngine.Hit(inDelta: true, position: right[deltaIndex])
        deltaIndex += 1
      } else {
        hit = GutendexEngine.Hit(inDelta: false, position: candidate ?? 0)
        pendingBase = nil
        baseIndex += 1
      }
      if skip > 0 {
        skip -= 1
      } else {
        hits.append(hit)
      }
    }
    return hits
  }
}
