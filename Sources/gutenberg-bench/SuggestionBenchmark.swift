import Foundation
import Gutendex
import GutendexEngine

/// Figure 10: "did you mean" for a search or topic that finds few books, next to the query
/// itself in the same run (both in process, over the embedded catalogue).
enum SuggestionBenchmark {
  /// 1–3 word queries that find at most three books, each with a suggestion.
  static let queries = [
    "search=shakespere", "search=les%20miserables", "search=pride%20prejudise",
    "topic=sience%20fiction", "search=dostoyevsky%20idoit", "search=sherlok%20holmes",
    "search=twenty%20thousand%20leauges",
  ]

  @MainActor
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    try firstRows(context) + (try await scaledRows(context))
  }

  /// Issue 36: the first suggestion of a freshly opened local catalogue of the snapshot's size
  /// and of four times it (base and delta; the vocabulary's trie and the posting lists, not
  /// the whole vocabulary nor every title), each next to a later suggestion on it. Only the
  /// queries that find no more than the threshold at both sizes are timed (a copied book found
  /// once at 1x is found four times at 4x, and asks for no suggestion).
  @MainActor
  static func scaledRows(_ context: BenchContext) async throws -> [ResultRow] {
    var rows: [ResultRow] = []
    var firsts: [Int: Samples] = [:]
    for scale in [1, 4] {
      let catalogue = try await ScaledCatalogue.catalogue(scale, context)
      let files = LocalCatalogueFiles(dataDirectory: catalogue.dataDirectory)
      let probe = try files.openEngine()
      let texts = try queries.filter { text in
        try count(in: probe.respond(to: request(text)).body, of: text)
          <= GutendexEngine.suggestionThreshold
      }
      guard !texts.isEmpty else { throw BenchError("no query finds few books at \(scale)x") }
      var first = Samples()
      var later = Samples()
      for round in 0..<context.count(20, minimum: 5) {
        let text = texts[round % texts.count]
        let engine = try files.openEngine()
        let found = try count(in: engine.respond(to: request(text)).body, of: text)
        var suggested: [Suggestion] = []
        first.append(
          Stopwatch.time { suggested = engine.suggestions(forQuery: text, found: found) })
        guard !suggested.isEmpty else { throw BenchError("no suggestion for \(text) at \(scale)x") }
        later.append(Stopwatch.time { _ = engine.suggestions(forQuery: text, found: found) })
      }
      firsts[scale] = first
      rows.append(
        ResultRow(
          figure: "12. first suggestion, cold, \(scale)x local catalogue", unit: .seconds,
          samples: first, baselineName: "a later suggestion", baseline: later,
          target: .atMost(scale == 1 ? 0.020 : 0.030),
          note: "\(catalogue.books) books (base + 1,000 synced); \(texts.count) queries"))
    }
    rows.append(
      ResultRow(
        figure: "12. first suggestion, cold: 4x catalogue", unit: .seconds,
        samples: firsts[4] ?? Samples(), baselineName: "1x catalogue",
        baseline: firsts[1] ?? Samples(), target: .none))
    return rows
  }

  static func firstRows(_ context: BenchContext) throws -> [ResultRow] {
    let runs = context.count(100, minimum: 10)
    Report.progress("figure 12: suggestions, \(runs) runs of \(queries.count) queries")
    // The first suggestion of a cold process: a freshly mapped catalogue each time, whose
    // vocabulary comes from the index (nothing else of the process is warm but the page cache).
    // As in `gutenberg list`, the query has run and its count is passed, so what is timed is
    // the suggestion alone, as for the later ones (timing `suggestions(forQuery:)` without the
    // count would time the query a second time, 7.5 ms of the 26.7 ms first recorded).
    var build = Samples()
    var firstWithQuery = Samples()
    for round in 0..<context.count(20, minimum: 5) {
      let text = queries[round % queries.count]
      let fresh = try EmbeddedCatalogue.load()
      let count = try Self.count(in: fresh.respond(to: Self.request(text)).body, of: text)
      build.append(Stopwatch.time { _ = fresh.suggestions(forQuery: text, found: count) })
      let other = try EmbeddedCatalogue.load()
      firstWithQuery.append(Stopwatch.time { _ = other.suggestions(forQuery: text) })
    }
    let engine = context.engine
    _ = engine.suggestions(forQuery: queries[0])
    var suggest = Samples()
    var query = Samples()
    for round in 0..<runs {
      let text = queries[round % queries.count]
      let request = try Self.request(text)
      var found: [Suggestion] = []
      var body = Data()
      query.append(Stopwatch.time { body = engine.respond(to: request).body })
      let count = try Self.count(in: body, of: text)
      // The front passes the count the server gave, as `gutenberg list` does.
      suggest.append(Stopwatch.time { found = engine.suggestions(forQuery: text, found: count) })
      guard !found.isEmpty else { throw BenchError("no suggestion for \(text)") }
    }
    return [
      ResultRow(
        figure: "12. suggestions for a 1–3 word query finding ≤ 3 books", unit: .seconds,
        samples: suggest, baselineName: "the query itself", baseline: query,
        target: .atMost(0.020),
        note: "counts each proposal by running it; vocabulary already read"),
      ResultRow(
        figure: "12. first suggestion of a cold process", unit: .seconds,
        samples: build, baselineName: "a later suggestion", baseline: suggest,
        target: .atMost(0.020),
        note:
          "a freshly mapped catalogue each run, after its query: the vocabulary is a section of the index"
      ),
      ResultRow(
        figure: "12. first suggestion, counting by its own query", unit: .seconds,
        samples: firstWithQuery, baselineName: "a later suggestion", baseline: suggest,
        target: .none,
        note: "suggestions(forQuery:) without the count: the query runs again inside"),
    ]
  }

  /// The list request of `text`, a query string.
  static func request(_ text: String) throws -> HTTPRequest {
    guard let url = URL(string: "http://localhost/books/?" + text) else {
      throw BenchError("bad URL \(text)")
    }
    return HTTPRequest(url: url)
  }

  /// The number of books a list response `body` (to the query `text`) says it found.
  static func count(in body: Data, of text: String) throws -> Int {
    guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any],
      let count = object["count"] as? Int
    else { throw BenchError("no count for \(text)") }
    return count
  }
}
