import Foundation
import Gutendex
import GutendexEngine
import Testing

@testable import Catalog

/// The typed store answers as the engine's list and detail endpoints do (one query path), over
/// a mapped base and a delta of synced books, with no HTTP in between.
@Suite("Catalogue store")
struct CatalogueStoreTests {
  /// A base of the 86 fixture books, and a delta of 40 new books (three in Slovak, three with
  /// a rare word in their titles) plus three base books whose download counts moved (so the
  /// popular order of the merged answer differs from the base's).
  final class Layers: Sendable {
    let directory: URL
    let engine: GutendexEngine
    let base: [Book]
    let added: [Book]

    init() throws {
      directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("catalogue-store-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      base = try CatalogFixtures.catalogue()
      added = (0..<40).map { index in
        Book(
          id: 900_001 + index,
          title: index < 3 ? "The Quillwhistle Papers \(index + 1)" : "Synced Book \(index + 1)",
          authors: [Person(name: "Writer, Number \(index + 1)")],
          subjects: ["Synced fiction"], languages: index >= 37 ? ["sk"] : ["en"],
          downloadCount: 10 * index)
      }
      let moved = base.prefix(3).map { book in
        Book(
          id: book.id, title: book.title, authors: book.authors, summaries: book.summaries,
          editors: book.editors, translators: book.translators, subjects: book.subjects,
          bookshelves: book.bookshelves, languages: book.languages, copyright: book.copyright,
          mediaType: book.mediaType, formats: book.formats, downloadCount: 1)
      }
      let directory = self.directory
      func index(_ books: [Book], _ name: String) throws -> String {
        var lines = Data()
        for book in books {
          lines.append(book.rawJSON)
          lines.append(0x0A)
        }
        let url = directory.appendingPathComponent(name)
        try CatalogueSnapshot.make(fromJSONLines: lines).write(to: url)
        return url.path
      }
      engine = try CatalogueSnapshot.engine(
        mapping: try index(base, "base.gdxindex"),
        delta: try index(added + moved, "delta.gdxindex"))
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The same engine asked as before the store: pretend HTTP through a client.
    var client: GutendexClient {
      GutendexClient(server: URL(string: "http://localhost")!, transport: engine, retry: .none)
    }
  }

  static let queries: [BookQuery] = [
    BookQuery(), BookQuery(page: 2), BookQuery(page: 4), BookQuery(sort: .ascending),
    BookQuery(sort: .descending, page: 3), BookQuery(search: "synced book"),
    BookQuery(languages: ["sk", "ja"]), BookQuery(topic: "fiction", page: 2),
    BookQuery(search: "the", languages: ["en"], sort: .ascending),
    BookQuery(ids: [900_001, 900_039, 84, 1342]),
  ]

  @Test(arguments: queries)
  func aPageIsTheListEndpointsAnswer(query: BookQuery) async throws {
    let layers = try Layers()
    let store = CatalogueStore(engine: layers.engine)
    let typed = try store.page(query)
    let answered = try await layers.client.page(query)
    #expect(typed == answered)
    #expect(typed.count > 0)
  }

  @Test func aBookIsTheDetailEndpointsAnswerAndTheSyncedCopyWins() async throws {
    let layers = try Layers()
    let store = CatalogueStore(engine: layers.engine)
    for id in [layers.base[0].id, layers.base[10].id, layers.added[5].id] {
      #expect(try store.book(id: id) == (try await layers.client.book(id: id)))
    }
    #expect(try store.book(id: layers.base[0].id).downloadCount == 1)
  }

  @Test func aMissIsNotFoundAndAPagePastTheEndIsOutOfRange() throws {
    let store = CatalogueStore(engine: try Layers().engine)
    #expect(throws: CatalogueStoreError.notFound(999_999_999)) {
      try store.book(id: 999_999_999)
    }
    // 86 + 40 books: 4 pages of 32.
    #expect(throws: CatalogueStoreError.pageOutOfRange(page: 9, pageCount: 4)) {
      try store.page(BookQuery(page: 9))
    }
  }

  @Test func countsTellTheBaseFromTheAddedBooks() throws {
    let layers = try Layers()
    let counts = CatalogueStore(engine: layers.engine).counts
    #expect(counts == CatalogueCounts(all: 126, base: 86, added: 40))
  }

  @Test func languageCodesAndSuggestionsIncludeTheSyncedBooks() throws {
    let layers = try Layers()
    let store = CatalogueStore(engine: layers.engine)
    #expect(store.languageCodes.contains("sk"))
    #expect(!layers.base.contains { $0.languages.contains("sk") }, "only the delta has it")
    let misspelt = BookQuery(search: "quillwhistel")
    #expect(try store.page(misspelt).count == 0)
    let proposals = store.suggestions(for: misspelt, found: 0)
    #expect(proposals.first == SearchSuggestion(field: .search, value: "quillwhistle", count: 3))
  }
}
