import Foundation
import TestSupport
import Testing

@testable import GutendexEngine

/// "Did you mean": proposals come from the catalogue's own words, and their counts from running
/// the changed query.
@Suite("Suggestions")
struct SuggestionTests {
  /// The number of books `query` finds, asked of the engine as a client would.
  func count(_ engine: GutendexEngine, _ query: String) throws -> Int {
    try ListBody(get(engine, "/books/?\(query)")).count
  }

  @Test(arguments: [
    ("search=les%20miserables", "les misérables"),
    ("search=shakespere", "shakespeare"),
    ("search=pride%20prejudise", "pride prejudice"),
    ("topic=sience%20fiction", "science fiction"),
  ])
  func theCatalogueProposesWhatWasMeant(query: String, expected: String) async throws {
    // Seconds of CPU: on a thread of its own, not the pool the parallel suites share.
    try await OwnThread.run {
      let engine = try embedded.get()
      let found = try count(engine, query)
      try #require(found <= GutendexEngine.suggestionThreshold, "\(query) finds \(found)")
      let suggestions = engine.suggestions(forQuery: query)
      let first = try #require(suggestions.first, "\(query): nothing suggested")
      #expect(first.value == expected)
      let encoded = try #require(
        first.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
      #expect(first.count == (try count(engine, "\(first.parameter)=\(encoded)")))
      #expect(first.count > found)
    }
  }

  /// "moby dik": the commonest words one edit from "dik" ("did", "die") find nothing with
  /// "moby", and "di" is no word; "dick" is the reading that finds books.
  @Test func aThreeLetterWordGetsOneEditToTheReadingThatFindsBooks() async throws {
    try await OwnThread.run {
      let suggestions = try embedded.get().suggestions(forQuery: "search=moby%20dik")
      #expect(suggestions.first?.value == "moby dick", "\(suggestions)")
    }
  }

  /// Among readings as many edits away, the one that finds more books comes first, even when
  /// its word is rarer in the catalogue: "pece" is one edit from "pace" (commoner) and "peace".
  @Test func theReadingThatFindsMoreBooksComesFirst() throws {
    let paces = (1...8).map { syntheticBook(id: $0, title: "Pace Notes \($0)", languages: ["en"]) }
    let peaces = (9...11).map {
      syntheticBook(id: $0, title: "War and Peace \($0)", languages: ["en"])
    }
    let diary = syntheticBook(id: 12, title: "War Pace Diary", languages: ["en"])
    let engine = try GutendexEngine(books: paces + peaces + [diary])
    let suggestions = engine.suggestions(forQuery: "search=war%20pece")
    #expect(
      suggestions == [
        Suggestion(parameter: "search", value: "war peace", count: 3),
        Suggestion(parameter: "search", value: "war pace", count: 1),
      ])
  }

  @Test func lesMiserablesFindsTheElevenBooks() throws {
    let engine = try embedded.get()
    let first = try #require(engine.suggestions(forQuery: "search=les%20miserables").first)
    #expect(first.description == "les misérables (11 books)")
  }

  @Test(arguments: [
    "search=dickens", "search=", "languages=fr", "topic=fiction", "search=zzzxxyqqq",
  ])
  func nothingWhenTheQueryFindsEnoughOrNothingIsNear(query: String) throws {
    #expect(try embedded.get().suggestions(forQuery: query).isEmpty)
  }

  @Test func otherParametersAreKept() throws {
    let books = [
      syntheticBook(id: 1, title: "Les Misérables I", languages: ["fr"]),
      syntheticBook(id: 2, title: "Les Misérables II", languages: ["fr"]),
      syntheticBook(id: 3, title: "Les Misérables III", languages: ["en"]),
      syntheticBook(id: 4, title: "Los miserables", languages: ["es"]),
    ]
    let engine = try GutendexEngine(books: books)
    #expect(
      engine.suggestions(forQuery: "search=miserables&languages=fr")
        == [Suggestion(parameter: "search", value: "misérables", count: 2)])
    #expect(engine.suggestions(forQuery: "search=miserables&languages=es").isEmpty)
  }

  @Test(
    arguments: [
      ("kitten", "sitting", 3, 3), ("ca", "ac", 1, 1), ("shakespere", "shakespeare", 2, 1),
      ("abc", "abc", 0, 0), ("abc", "", 3, 3), ("flaw", "lawn", 1, nil),
      ("abcdef", "badcfe", 2, nil),
    ] as [(String, String, Int, Int?)])
  func editDistance(a: String, b: String, limit: Int, expected: Int?) {
    #expect(EditDistance.between(Array(a), Array(b), limit: limit) == expected)
    #expect(EditDistance.between(Array(b), Array(a), limit: limit) == expected)
  }
}
