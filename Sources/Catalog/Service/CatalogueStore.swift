import Foundation
import Gutendex
import GutendexEngine

/// The local catalogue as typed answers: a page for a ``BookQuery``, a book by id, counts,
/// "did you mean" proposals and language codes, over the mapped base and the synced delta.
///
/// The engine stays the implementation (one query path with `gutendex-server`, so the answers
/// are the real server's: the same order and tie rules); nothing here is HTTP. The engine
/// writes a page as the server's JSON, which is decoded here once, as a server's page is.
final class CatalogueStore: Sendable {
  /// Where `next`/`previous` links of local pages point: nobody follows them (the browser
  /// pages by number), but a page keeps the server's shape.
  static let linkBase = "http://localhost/books/"

  /// Immutable after init (a final class with `let` storage), so shared across tasks.
  private let engine: GutendexEngine

  /// A store over `engine`.
  init(engine: GutendexEngine) {
    self.engine = engine
  }

  /// The page `query` asks for.
  func page(_ query: BookQuery) throws(CatalogueStoreError) -> BookPage {
    let bytes: [UInt8]
    do {
      bytes = try engine.pageJSON(for: query, linkBase: Self.linkBase)
    } catch {
      switch error {
      case .invalidPage:
        throw .pageOutOfRange(
          page: query.page, pageCount: BookQuery.pageCount(forResults: engine.count(of: query)))
      case .damaged(let reason): throw .damaged(reason)
      }
    }
    do {
      return try BookPage.decode(from: Data(bytes))
    } catch {
      throw .damaged("page \(query.page) of \(query.encoded): \(error)")
    }
  }

  /// Book `id`: the synced copy when there is one, else the base's.
  func book(id: Int) throws(CatalogueStoreError) -> Book {
    let bytes: [UInt8]?
    do {
      bytes = try engine.detailJSON(id: id)
    } catch {
      switch error {
      case .invalidPage: throw .notFound(id)
      case .damaged(let reason): throw .damaged(reason)
      }
    }
    guard let bytes else { throw .notFound(id) }
    do {
      return try Book.decode(from: Data(bytes))
    } catch {
      throw .damaged("book \(id): \(error)")
    }
  }

  /// How many books it holds: in all, in the base, and added by syncs since the base.
  var counts: CatalogueCounts {
    CatalogueCounts(
      all: engine.bookCount, base: engine.baseBookCount, added: engine.addedBookCount)
  }

  /// What `query`, which found `found` books, probably meant (the delta's words included); empty
  /// when it found more than ``SearchSuggestion/threshold`` books or has no search or topic.
  func suggestions(for query: BookQuery, found: Int) -> [SearchSuggestion] {
    guard found <= SearchSuggestion.threshold, query.search != nil || query.topic != nil else {
      return []
    }
    return engine.suggestions(for: query, found: found).map {
      SearchSuggestion(
        field: $0.parameter == "topic" ? .topic : .search, value: $0.value, count: $0.count)
    }
  }

  /// Every language code some book has (the synced books' too), sorted.
  var languageCodes: [String] { engine.languageCodes }
}
