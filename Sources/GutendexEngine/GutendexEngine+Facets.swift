/// What ranking a book needs (who wrote it, what it is about, its languages), read from the
/// index without writing and parsing the book's JSON.
public struct BookFacets: Sendable, Hashable {
  /// The Project Gutenberg number.
  public var id: Int
  /// The authors' names, in the server's order.
  public var authors: [String]
  /// Library of Congress subject headings.
  public var subjects: [String]
  /// Project Gutenberg bookshelves.
  public var bookshelves: [String]
  /// Language codes.
  public var languages: [String]
}

extension GutendexEngine {
  /// The facets of book `id` as the engine serves it (the delta's copy first), nil when there
  /// is none.
  public func facets(id: Int) -> BookFacets? {
    guard let record = try? record(id: id) else { return nil }
    return BookFacets(
      id: id, authors: record.authors.map(\.name), subjects: record.subjects,
      bookshelves: record.bookshelves, languages: record.languages)
  }

  /// Calls `body` with the facets of each book of `ids` the engine holds (the delta's copy
  /// first), in no particular order: the delta is read once as a stream; the base's books are
  /// looked up one by one when they are few, else the base is read as a stream too. Nothing
  /// is held but the book at hand (thousands of arrivals ranked after a sync or a refresh).
  public func forEachFacets(of ids: Set<Int>, _ body: (BookFacets) -> Void) {
    var rest = ids
    func facets(_ record: BookRecord) -> BookFacets {
      BookFacets(
        id: record.id, authors: record.authors.map(\.name), subjects: record.subjects,
        bookshelves: record.bookshelves, languages: record.languages)
    }
    // A stream stopped by a damaged record leaves its books to the lookups below, which pass
    // over that one alone.
    if let delta {
      let held: (Int) -> Bool = { ids.contains(delta.id(at: $0)) }
      try? delta.forEachRecord(where: held) { record in
        rest.remove(record.id)
        body(facets(record))
      }
    }
    if case .mapped(let books) = storage, rest.count > books.bookCount / 64 {
      let wanted = rest
      let held: (Int) -> Bool = { wanted.contains(books.id(at: $0)) }
      try? books.forEachRecord(where: held) { record in
        // A base book the delta replaces was answered from the delta.
        guard rest.remove(record.id) != nil else { return }
        body(facets(record))
      }
    }
    for id in rest.sorted() {
      if let found = self.facets(id: id) { body(found) }
    }
  }
}
