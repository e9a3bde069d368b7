import Foundation
import GutendexEngine

// Derives the embedded catalogue snapshot from the real catalogue (JSON Lines, gzip ok):
//   gutendex-snapshot [--source FILE] [--output FILE]   write the snapshot
//   gutendex-snapshot --verify [--source FILE] [--output FILE]   compare it with the source
let usage = """
  usage: gutendex-snapshot [--verify] [--source catalogue.jsonl.gz] [--output snapshot.gdxsnap]
  """
var source = "../shared/gutendex/catalogue-2025-08.jsonl.gz"
var output = "Sources/GutendexEngine/Resources/catalogue-2025-08.gdxsnap"
var verify = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--verify": verify = true
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
  return String(format: "%.2f s", Double(elapsed.components.attoseconds) / 1e18
    + Double(elapsed.components.seconds))
}

do {
  let sourceData = try Data(contentsOf: URL(fileURLWithPath: source))
  if !verify {
    let start = ContinuousClock.now
    let snapshot = try CatalogueSnapshot.make(fromJSONLines: sourceData)
    try snapshot.write(to: URL(fileURLWithPath: output))
    print("wrote \(output): \(snapshot.count) bytes in \(seconds(since: start))")
    exit(0)
  }
  var start = ContinuousClock.now
  let engine = try CatalogueSnapshot.engine(
    from: Data(contentsOf: URL(fileURLWithPath: output)))
  print("loaded \(engine.bookCount) books from \(output) in \(seconds(since: start))")
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
