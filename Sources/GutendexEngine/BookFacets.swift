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

  init(_ record: BookRecord) {
    id = record.id
    authors = record.authors.map(\.name)
    subjects = record.subjects
    bookshelves = record.bookshelves
    languages = record.languages
  }

  /// The facets of book `id` as `engine` serves it (the delta's copy first), nil when there is
  /// none.
  public static func of(id: Int, in engine: GutendexEngine) -> BookFacets? {
    guard let record = try? engine.record(id: id) else { return nil }
    return BookFacets(record)
  }

  /// Calls `body` with the facets of each book of `ids` that `engine` holds (the delta's copy
  /// first), in no particular order: the delta is read once as a stream; the base's books are
  /// looked up one by one when they are few, else the base is read as a stream too. Nothing
  /// is held but the book at hand (thousands of arrivals ranked after a sync or a refresh).
  public static func forEach(
    of ids: Set<Int>, in engine: GutendexEngine, _ body: (BookFacets) -> Void
  ) {
    var rest = ids
    // A stream stopped by a damaged record leaves its books to the lookups below, which pass
    // over that one alone.
    if let delta = engine.delta {
      let held: (Int) -> Bool = { ids.contains(delta.id(at: $0)) }
      try? delta.forEachRecord(where: held) { record in
        rest.remove(record.id)
        body(BookFacets(record))
      }
    }
    if case .mapped(let books) = engine.storage, rest.count > books.bookCount / 64 {
      let wanted = rest
      let held: (Int) -> Bool = { wanted.contains(books.id(at: $0)) }
      try? books.forEachRecord(where: held) { record in
        // A base book the delta replaces was answered from the delta.
        guard rest.remove(record.id) != nil else { return }
        body(BookFacets(record))
      }
    }
    for id in rest.sorted() {
      if let found = of(id: id, in: engine) { body(found) }
    }
  }
}
