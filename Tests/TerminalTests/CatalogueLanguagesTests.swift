import Foundation
import GutendexEngine
import Terminal
import Testing

/// `--language` completion offers exactly the languages the embedded catalogue has.
@Suite struct CatalogueLanguagesTests {
  @Test func theCodesAreTheCataloguesLanguagesMostBooksFirst() throws {
    let engine = try EmbeddedCatalogue.load()
    var books: [String: Int] = [:]
    for id in engine.bookIDs {
      let json = try #require(engine.bookJSON(id: id))
      let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
      for code in try #require(object["languages"] as? [String], "book \(id)") {
        books[code, default: 0] += 1
      }
    }
    #expect(Set(CatalogueLanguages.codes) == Set(books.keys))
    #expect(CatalogueLanguages.codes.count == books.count, "no code twice")
    let counts = CatalogueLanguages.codes.map { books[$0] ?? 0 }
    #expect(counts == counts.sorted(by: >), "most books first: \(counts)")
  }
}
