import Foundation
import Gutendex
import GutendexEngine

// Derives the embedded catalogue snapshot from the real catalogue (JSON Lines, gzip ok):
//   gutendex-snapshot [--source FILE] [--output FILE]   write the snapshot
//   gutendex-snapshot --verify [--source FILE] [--output FILE]   compare it with the source
//   gutendex-snapshot --bench [--output FILE]   time loading and a few queries
let usage = """
  usage: gutendex-snapshot [--verify | --bench] [--source catalogue.jsonl.gz] \
  [--output snapshot.gdxindex]
  """
var source = "../shared/gutendex/catalogue-2025-08.jsonl.gz"
var output = "Sources/GutendexEngine/Resources/catalogue-2025-08.gdxindex"
var verify = false
var bench = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--verify": verify = true
  case "--bench": bench = true
  case "--source", "--output":
    guard let value = arguments.popFirst() else {
      FileHandle.standardError.write(Data("\(argument) needs a value\n\(usage)\n".utf8))
      exit(2)
    }
    if argument == "--source" { source = value } else { output = value }
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    FileHandle.standardError.write(Data("unknown argument \(argument)\n\(usage)\n".utf8))
    exit(2)
  }
}

/// Seconds since `start`, for the log.
func seconds(since start: ContinuousClock.Instant) -> String {
  let elapsed = ContinuousClock.now - start
  return String(
    format: "%.2f s",
    Double(elapsed.components.attoseconds) / 1e18
      + Double(elapsed.components.seconds))
}

/// Loads the snapshot and times typical queries (each the best of five runs).
func runBench(_ output: String) throws {
  let start = ContinuousClock.now
  let engine = try CatalogueSnapshot.engine(mapping: output)
  print("open: \(engine.bookCount) books in \(seconds(since: start))")
  let queries = [
    "", "search=dickens%20great", "search=a%20e%20i%20o", "languages=en&page=1000",
    "topic=fiction", "topic=", "author_year_start=1800&author_year_end=1900",
    "mime_type=audio", "sort=ascending&page=last", "ids=84,1342,11",
  ]
  for query in queries {
    guard let url = URL(string: "http://bench.test/books/?" + query) else { continue }
    var best = Duration.seconds(1000)
    var status = 0
    for _ in 0..<5 {
      let begin = ContinuousClock.now
      status = engine.respond(to: HTTPRequest(url: url)).status
      best = min(best, ContinuousClock.now - begin)
    }
    let milliseconds =
      Double(best.components.attoseconds) / 1e15
      + Double(best.components.seconds) * 1000
    print(String(format: "%8.2f ms  %d  /books/?%@", milliseconds, status, query))
  }
}

do {
  if bench {
    try runBench(output)
    exit(0)
  }
  let sourceData = try Data(contentsOf: URL(fileURLWithPath: source))
  if !verify {
    let start = ContinuousClock.now
    let snapshot = try CatalogueSnapshot.make(fromJSONLines: sourceData)
    try snapshot.write(to: URL(fileURLWithPath: output))
    print("wrote \(output): \(snapshot.count) bytes in \(seconds(since: start))")
    exit(0)
  }
  var start = ContinuousClock.now
  try CatalogueSnapshot.verify(Data(contentsOf: URL(fileURLWithPath: output)))
  let engine = try CatalogueSnapshot.engine(mapping: output)
  print("checksums ok; opened \(engine.bookCount) books from \(output) in \(seconds(since: start))")
  start = ContinuousClock.now
  let plain = try CatalogueSnapshot.gunzip(sourceData)
  var lines = 0
  var equal = 0
  var seen = Set<Int>()
  for line in plain.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
    lines += 1
    let expected = try CatalogueSnapshot.emptyingSummaries(Data(line))
    let digits = line.dropFirst(#"{"id":"#.utf8.count).prefix { (0x30...0x39).contains($0) }
    guard let id = Int(String(decoding: digits, as: UTF8.self)) else {
      print("line \(lines): no id")
      continue
    }
    seen.insert(id)
    if let actual = engine.bookJSON(id: id), actual == expected {
      equal += 1
    } else if lines - equal <= 5 {
      print("MISMATCH book \(id)")
      print("  expected: \(String(decoding: expected, as: UTF8.self))")
      print("  actual:   \(String(decoding: engine.bookJSON(id: id) ?? Data(), as: UTF8.self))")
    }
  }
  let extra = engine.bookCount - seen.count
  print(
    "source books: \(lines), snapshot books: \(engine.bookCount), byte-equal: \(equal), "
      + "different: \(lines - equal), only in snapshot: \(extra) (\(seconds(since: start)))")
  exit(equal == lines && extra == 0 ? 0 : 1)
} catch {
  FileHandle.standardError.write(Data("gutendex-snapshot: \(error)\n".utf8))
  exit(1)
}
