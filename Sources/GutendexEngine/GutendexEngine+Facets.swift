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
}
