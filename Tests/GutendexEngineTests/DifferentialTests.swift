import Foundation
import Gutendex
import Testing

@testable import GutendexEngine

/// Recorded answers of real servers, replayed: the engine, given the recording's own books
/// plus distractors that cannot match, must return the same ids in the same order.
@Suite("Differential against recordings")
struct DifferentialTests {
  /// Fixture books that cannot match an English search or a non-French language query.
  static func frenchDistractors(excluding ids: [Int]) throws -> [Data] {
    try Fixture.lines().filter { line in
      guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any],
        let id = object["id"] as? Int
      else { return false }
      return object["languages"] as? [String] == ["fr"] && !ids.contains(id)
    }
  }

  @Test(
    "complete recordings",
    arguments: [
      ("e2-2022-search-great-expectations", "search=great%20expectations"),
      ("e2-2022-search-colors", "search=colors"),
      ("e2-2022-ids-80", "ids=80"),
      ("e2-2022-no-results", "search=zzzxxyqqq"),
      ("mirror-2024-ar__page_1", "languages=ar"),
      ("mirror-2024-ja__page_1", "languages=ja"),
      ("mirror-2024-no__page_1", "languages=no"),
      ("mirror-2024-pl__page_1", "languages=pl"),
      ("mirror-2024-ru__page_1", "languages=ru"),
      ("mirror-2024-zu__page_1", "languages=zu"),
    ])
  func completeRecording(name: String, query: String) throws {
    let recording = try Fixture.recording(name)
    try #require(recording.count == recording.ids.count, "only complete recordings here")
    let distractors = try Self.frenchDistractors(excluding: recording.ids)
    try #require(distractors.count >= 20)
    let engine = try GutendexEngine(books: recording.books + distractors)
    let response = try get(engine, "/books/?\(query)")
    #expect(response.status == 200)
    let body = try ListBody(response)
    #expect(body.count == recording.count)
    #expect(body.ids == recording.ids)
    #expect(body.next == nil)
    #expect(body.previous == nil)
  }

  @Test(
    "order inside a recorded page",
    arguments: [
      ("mirror-2024-de__page_11", "de"), ("mirror-2024-fr__page_9", "fr"),
      ("mirror-2024-es__page_6", "es"),
    ])
  func pageOrder(name: String, language: String) throws {
    let recording = try Fixture.recording(name)
    let engine = try GutendexEngine(books: recording.books)
    let body = try ListBody(get(engine, "/books/?languages=\(language)"))
    #expect(body.ids == recording.ids)
  }

  /// The mirror's files are its untouched raw bytes (the e2 ones were pretty-printed).
  @Test func recordedNoResultsBodyIsByteEqual() throws {
    let engine = try Fixture.engine()
    let recorded = try Fixture.data("recordings/mirror-2024-zu__page_1.json")
    let response = try get(engine, "/books/?languages=zu")
    #expect(response.body == recorded)
  }
}
