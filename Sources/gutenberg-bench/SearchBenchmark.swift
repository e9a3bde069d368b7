import Foundation
import Gutendex
import GutendexEngine

/// Figure 6: twenty real queries over the whole embedded catalogue, in process and over HTTP.
enum SearchBenchmark {
  /// Searches people type, languages, topics, year ranges, sorts and their combinations.
  static let queries: [BookQuery] = [
    BookQuery(search: "dickens"),
    BookQuery(search: "great expectations"),
    BookQuery(search: "sherlock holmes"),
    BookQuery(search: "shakespeare hamlet"),
    BookQuery(search: "twain"),
    BookQuery(search: "war and peace"),
    BookQuery(search: "austen", sort: .ascending),
    BookQuery(search: "poe raven"),
    BookQuery(languages: ["fr"]),
    BookQuery(languages: ["de", "nl"]),
    BookQuery(languages: ["fi"], sort: .descending),
    BookQuery(topic: "children"),
    BookQuery(topic: "science fiction"),
    BookQuery(topic: "detective"),
    BookQuery(languages: ["en"], topic: "history"),
    BookQuery(authorYearStart: 1800, authorYearEnd: 1899),
    BookQuery(search: "love", languages: ["en"], topic: "fiction"),
    BookQuery(copyright: [.publicDomain], sort: .descending),
    BookQuery(search: "verne", languages: ["fr"]),
    BookQuery(sort: .ascending, page: 100),
  ]

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let rounds = context.count(5)
    Report.progress("figure 6: \(queries.count) queries × \(rounds) rounds, direct and over HTTP")
    guard let local = URL(string: "http://localhost") else { throw BenchError("bad URL") }
    let direct = GutendexClient(server: local, transport: context.engine, retry: .none)
    let http = GutendexClient(server: context.url, transport: CurlTransport(), retry: .none)
    var engineTimes = Samples()
    var httpTimes = Samples()
    for round in 0...rounds {
      for query in queries {
        var counts: [Int] = []
        let one = try await Stopwatch.time { counts.append(try await direct.page(query).count) }
        let other = try await Stopwatch.time { counts.append(try await http.page(query).count) }
        guard counts[0] == counts[1], counts[0] > 0 else {
          throw BenchError(
            "\(query.encoded): \(counts[0]) books in process, \(counts[1]) over HTTP")
        }
        if round > 0 {
          engineTimes.append(one)
          httpTimes.append(other)
        }
      }
    }
    return [
      ResultRow(
        figure: "6. search, embedded engine in process", unit: .seconds, samples: engineTimes,
        baselineName: "loopback HTTP", baseline: httpTimes, target: .none,
        note: "\(queries.count) queries × \(rounds) rounds over \(context.engine.bookCount) books")
    ]
  }
}
