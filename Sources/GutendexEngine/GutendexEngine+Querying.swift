import Foundation
import Gutendex

/// The engine asked in values rather than pretend HTTP: what the model layer's catalogue store
/// uses. Each answer is the one the list or detail endpoint gives the same query (one code
/// path: ``respond(to:)`` calls the same functions), so a local catalogue and a server built on
/// the engine cannot drift apart.
extension GutendexEngine {
  /// The JSON of the `/books/` page `query` asks for, with its `next`/`previous` links under
  /// `linkBase` (e.g. `http://localhost/books/`), as the list endpoint answers it.
  public func pageJSON(for query: BookQuery, linkBase: String) throws(QueryFailure) -> [UInt8] {
    let parameters = QueryString(pairs: query.parameters.map { ($0.name, $0.value) })
    let answer = listBody(filter: BookFilter(query: parameters), query: parameters) { link in
      linkBase + (link.isEmpty ? "" : "?" + link)
    }
    return try answer.get()
  }

  /// The JSON of book `id` as the detail endpoint answers it (a synced copy first), nil when
  /// the catalogue does not hold it.
  public func detailJSON(id: Int) throws(QueryFailure) -> [UInt8]? {
    try detailBody(filter: BookFilter(query: QueryString(pairs: [])), id: id).get()
  }

  /// How many books `query` finds (its page aside), over the base and the delta.
  public func count(of query: BookQuery) -> Int {
    matchCount(QueryString(pairs: query.parameters.map { ($0.name, $0.value) }))
  }

  /// What a `query` that found `found` books probably meant (see
  /// ``suggestions(forQuery:found:limit:)``), the delta's words included.
  public func suggestions(for query: BookQuery, found: Int?, limit: Int = 3) -> [Suggestion] {
    suggestions(forQuery: query.atPage(1).encoded, found: found, limit: limit)
  }

  /// Every language code some book has, the base's and the delta's, sorted.
  public var languageCodes: [String] {
    var codes: Set<String>
    switch storage {
    case .memory(let books): codes = Set(books.languageCodes)
    case .mapped(let books): codes = Set(books.languageCodes)
    }
    if let delta { codes.formUnion(delta.languageCodes) }
    return codes.sorted()
  }
}
