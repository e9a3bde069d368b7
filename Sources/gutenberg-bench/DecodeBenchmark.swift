import Foundation
import Gutendex
import TestSupport

/// Figure 3: decoding one real 32-book page, against Foundation's untyped JSON parser.
enum DecodeBenchmark {
  static func run(_ context: BenchContext) throws -> [ResultRow] {
    // The tests' own copy of the recording (TestSupport keeps each fixture once).
    let data = try FixtureFiles.recording("e4-2025-page1")
    let page = try BookPage.decode(from: data)
    guard page.results.count == 32 else { throw BenchError("the fixture is not a 32-book page") }
    let runs = context.count(400, minimum: 50)
    Report.progress("figure 3: decode a \(data.count)-byte page, \(runs) runs each")
    var decode = Samples()
    var baseline = Samples()
    var books = 0
    var objects = 0
    // Interleaved, after a warm-up of each.
    for run in 0...runs {
      let one = try Stopwatch.time { books += try BookPage.decode(from: data).results.count }
      let other = try Stopwatch.time {
        if try JSONSerialization.jsonObject(with: data) is [String: Any] { objects += 1 }
      }
      if run > 0 {
        decode.append(one)
        baseline.append(other)
      }
    }
    guard books == 32 * (runs + 1), objects == runs + 1 else {
      throw BenchError("decoding gave the wrong result")
    }
    let megabytes = Double(data.count) / 1_000_000
    return [
      ResultRow(
        figure: "3. decode one 32-book page (\(data.count / 1000) kB)", unit: .seconds,
        samples: decode, baselineName: "JSONSerialization", baseline: baseline,
        target: .atMost(0.001),
        note: String(
          format: "BookPage.decode %.0f MB/s, JSONSerialization %.0f MB/s",
          megabytes / decode.median, megabytes / baseline.median))
    ]
  }
}
