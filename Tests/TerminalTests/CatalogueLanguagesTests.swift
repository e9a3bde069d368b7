import Foundation
import GutendexEngine
import Terminal
import TestSupport
import Testing

/// `--language` completion offers exactly the languages the embedded catalogue has.
@Suite struct CatalogueLanguagesTests {
  @Test func theCodesAreTheCataloguesLanguagesMostBooksFirst() async throws {
    // Seconds of CPU: on a thread of its own, not the pool the parallel suites share.
    try await OwnThread.run {
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
}

/// `--language` and `lang` take codes, English names and native names, and refuse the rest.
@Suite struct LanguageNameTests {
  @Test func everyCodeHasAnEnglishAndANativeName() throws {
    for code in CatalogueLanguages.codes {
      let words = try #require(try? CatalogueLanguages.codes(for: [code]), "\(code)")
      #expect(words == [code])
    }
  }

  @Test(arguments: [
    (["french"], ["fr"]), (["French,german"], ["fr", "de"]), (["français"], ["fr"]),
    (["FRANCAIS"], ["fr"]), (["deutsch"], ["de"]), (["español", "espanol"], ["es"]),
    (["EN", "english"], ["en"]), (["Middle English"], ["enm"]), (["ελληνικά"], ["el"]),
    (["русский , 日本語"], ["ru", "ja"]), (["en fr"], ["en", "fr"]), (["scottish gaelic"], ["gla"]),
    ([], []),
  ])
  func namesAndCodesResolve(arguments: [String], codes: [String]) throws {
    #expect(try CatalogueLanguages.codes(for: arguments) == codes)
  }

  @Test(
    arguments: [
      ("xx", "en"), ("englsh", "en"), ("fench", "fr"), ("germn", "de"), ("klingon", nil),
    ] as [(String, String?)])
  func unknownWordsNameTheClosest(word: String, first: String?) throws {
    let error = try #require(throws: CatalogueLanguages.UnknownLanguage.self) {
      try CatalogueLanguages.codes(for: ["en", word])
    }
    #expect(error.word == word)
    #expect(error.closest.first == first)
    #expect(error.message.hasPrefix("unknown language '\(word)'; "))
    #expect(error.message.contains(first.map { "did you mean \($0) (" } ?? "such as en (English)"))
  }
}
