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
      ("x1", "en"), ("englsh", "en"), ("fench", "fr"), ("germn", "de"), ("klingon", nil),
      ("engl", "en"), ("Germ", "de"),
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

/// A word the table of names lacks: the user's catalogue first, then the shape of a code.
@Suite struct UnknownCodeTests {
  /// Two or three letters are a code as typed: the server answers any code, so one that only
  /// the server or the next sync has (`tok`, `vi`) is asked for, and one nobody has finds nothing.
  @Test(arguments: [
    (["zz"], ["zz"]), (["TOK"], ["tok"]), (["vi, fr"], ["vi", "fr"]), (["en qya"], ["en", "qya"]),
  ])
  func aWellFormedCodeIsTakenAsTyped(arguments: [String], codes: [String]) throws {
    #expect(try CatalogueLanguages.codes(for: arguments) == codes)
  }

  /// The catalogue is read only for a word the table lacks, and once for all of them.
  @Test func theCatalogueIsReadOnlyForUnknownWordsAndOnce() throws {
    var reads = 0
    let known = try CatalogueLanguages.codes(for: ["en", "français", "Middle English"]) {
      reads += 1
      return []
    }
    #expect(known == ["en", "fr", "enm"] && reads == 0)
    let unknown = try CatalogueLanguages.codes(for: ["tok,vi", "de", "zz"]) {
      reads += 1
      return ["tok"]
    }
    #expect(unknown == ["tok", "vi", "de", "zz"] && reads == 1)
  }

  /// What the catalogue holds is taken even when another rule would read it otherwise: a
  /// 3-letter ISO 639-2 code (`ger`, else German's `de`), a longer code.
  @Test func aCodeTheCatalogueHasIsTaken() throws {
    #expect(try CatalogueLanguages.codes(for: ["ger"]) == ["de"])
    #expect(throws: CatalogueLanguages.UnknownLanguage.self) {
      try CatalogueLanguages.codes(for: ["abcd"])
    }
    #expect(
      try CatalogueLanguages.codes(for: ["GER", "abcd"]) { ["abcd", "ger"] } == ["ger", "abcd"])
  }

  /// Three letters that begin known names propose those languages, most books first.
  @Test func anAbbreviatedNameProposesTheLanguagesItBegins() throws {
    let error = try #require(throws: CatalogueLanguages.UnknownLanguage.self) {
      try CatalogueLanguages.codes(for: ["tag"])
    }
    #expect(error.closest == ["tl", "bgs"])
    #expect(
      error.message == "unknown language 'tag'; did you mean tl (Tagalog), bgs (Tagabawa)?")
  }
}
