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
    guard let record = record(id: id) else { return nil }
    return BookFacets(
      id: id, authors: record.authors.map(\.name), subjects: record.subjects,
      bookshelves: record.bookshelves, languages: record.languages)
  }

  private func record(id: Int) -> BookRecord? {
    if let delta, let position = delta.position(of: id) {
      return try? delta.record(at: Int(position))
    }
    switch storage {
    case .memory(let books):
      return books.position(of: id).map { books.record(at: Int($0)) }
    case .mapped(let books):
      return books.position(of: id).flatMap { try? books.record(at: Int($0)) }
    }
  }
}
