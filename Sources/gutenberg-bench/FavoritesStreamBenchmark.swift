import Catalog
import Foundation
import Gutendex

/// Figure 16: `favorites list`, `favorites export` and `favorites import` of 10,000 favourites
/// with five bookmarks and a reading position each, as processes: time and peak RSS, against
/// the same 10,000 favourites without reading data (the export of version 1) in the same run.
@MainActor
enum FavoritesStreamBenchmark {
  static let favoriteCount = 10_000
  static let bookmarksEach = 5

  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    Report.progress("figure 16: favourites with bookmarks, building \(favoriteCount)")
    let ids = context.engine.bookIDs
    guard ids.count > favoriteCount else { throw BenchError("the catalogue is too small") }
    // The same 10,000 books, as two import documents: plain (version 1) and with reading data.
    var plain = Data(#"{"format":"gutenberg-favorites","version":1,"favorites":["#.utf8)
    var marked = Data(#"{"format":"gutenberg-favorites","version":2,"favorites":["#.utf8)
    for (index, id) in ids.prefix(favoriteCount).enumerated() {
      guard let json = context.engine.bookJSON(id: id) else { throw BenchError("no book \(id)") }
      let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(index)).ISO8601Format()
      let head = Data(#"{"added_at":"\#(date)","book":"#.utf8) + json
      if index > 0 {
        plain.append(UInt8(ascii: ","))
        marked.append(UInt8(ascii: ","))
      }
      plain.append(head + Data("}".utf8))
      let marks = (0..<bookmarksEach).map { mark in
        #"{"byte_offset":\#(mark * 40_000),"created_at":"\#(date)","key":"b-\#(id)-\#(mark)","#
          + #""note":"\#(mark % 2 == 0 ? "" : "a note on the place \(mark)")","#
          + #""quote":"It was on a dreary night of November that I beheld the accomplishment","#
          + #""updated_at":"\#(date)"}"#
      }
      let position =
        #"{"byte_offset":123456,"line":2000,"quote":"I saw the dull yellow eye of the creature open","#
        + #""updated_at":"\#(date)"}"#
      marked.append(
        head + Data(#","bookmarks":[\#(marks.joined(separator: ","))],"reading_position":"#.utf8)
          + Data(position.utf8) + Data("}".utf8))
    }
    plain.append(Data("]}".utf8))
    marked.append(Data("]}".utf8))
    let plainFile = context.scratch.appendingPathComponent("figure16-plain.json")
    let markedFile = context.scratch.appendingPathComponent("figure16-marked.json")
    try plain.write(to: plainFile)
    try marked.write(to: markedFile)

    func command(_ directory: URL, _ arguments: [String], output: String = "/dev/null")
      -> BenchRun
    {
      var run = BenchRun(executable: context.binaries.gutenberg, arguments: arguments)
      run.output = output
      run.environment["GUTENBERG_DATA_DIR"] = directory.path
      return run
    }
    func checked(_ run: BenchRun, _ what: String) async throws -> BenchRun.Outcome {
      let outcome = try await run.run()
      guard outcome.exitStatus == 0 else {
        throw BenchError("\(what) failed with status \(outcome.exitStatus)")
      }
      return outcome
    }

    // Import: each document into a fresh data directory, interleaved.
    let imports = context.count(3, minimum: 2)
    Report.progress("figure 16: import, \(imports) runs each")
    var importPlain = Samples()
    var importMarked = Samples()
    var importPeak = Samples()
    var plainDirectory = context.scratch
    var markedDirectory = context.scratch
    for run in 0..<imports {
      plainDirectory = try context.dataDirectory("figure16-plain-\(run)")
      markedDirectory = try context.dataDirectory("figure16-marked-\(run)")
      let one = try await checked(
        command(plainDirectory, ["favorites", "import", plainFile.path]), "import (plain)")
      let other = try await checked(
        command(markedDirectory, ["favorites", "import", markedFile.path]), "import (marked)")
      importPlain.append(one.seconds)
      importMarked.append(other.seconds)
      importPeak.append(other.peakRSS)
    }

    // Add: the same 10,000 books by id (from the local catalogue), one process each, against
    // importing them (the plain document), interleaved: issue 36's one transaction per command.
    Report.progress("figure 16: add of \(favoriteCount) ids, \(imports) runs each")
    let idArguments = ids.prefix(favoriteCount).map(String.init)
    var add = Samples()
    var addCPU = Samples()
    var importCPU = Samples()
    var addPeak = Samples()
    for run in 0..<imports {
      let added = try context.dataDirectory("figure16-add-\(run)")
      let outcome = try await checked(
        command(added, ["favorites", "add"] + idArguments + ["--source", "local"]), "add")
      let count = try await BenchRun(
        executable: context.binaries.gutenberg, arguments: ["favorites", "list"],
        output: context.scratch.appendingPathComponent("figure16-added.tsv").path,
        environment: BenchRun.cleanEnvironment.merging(["GUTENBERG_DATA_DIR": added.path]) {
          $1
        }
      ).run()
      let listedAdds = try String(
        contentsOfFile: context.scratch.appendingPathComponent("figure16-added.tsv").path,
        encoding: .utf8
      ).split(separator: "\n").count
      guard count.exitStatus == 0, listedAdds == favoriteCount else {
        throw BenchError("add saved \(listedAdds) favourites, not \(favoriteCount)")
      }
      let imported = try await checked(
        command(
          try context.dataDirectory("figure16-add-import-\(run)"),
          [
            "favorites", "import", plainFile.path,
          ]), "import (plain) for add")
      add.append(outcome.seconds)
      addCPU.append(outcome.cpuSeconds)
      importCPU.append(imported.cpuSeconds)
      addPeak.append(outcome.peakRSS)
    }

    // List (piped) and export (to a file), interleaved with the plain store's.
    let runs = context.count(7)
    Report.progress("figure 16: list and export, \(runs) runs each")
    let listed = context.scratch.appendingPathComponent("figure16-list.tsv").path
    let exported = context.scratch.appendingPathComponent("figure16-export.json")
    var list = Samples()
    var listPlain = Samples()
    var listPeak = Samples()
    var export = Samples()
    var exportPlain = Samples()
    var exportPeak = Samples()
    for _ in 0..<runs {
      let one = try await checked(
        command(markedDirectory, ["favorites", "list"], output: listed), "list")
      let lines = try String(contentsOfFile: listed, encoding: .utf8).split(separator: "\n")
      guard lines.count == favoriteCount else {
        throw BenchError("list printed \(lines.count) rows, not \(favoriteCount)")
      }
      let other = try await checked(command(plainDirectory, ["favorites", "list"]), "list (plain)")
      list.append(one.seconds)
      listPeak.append(one.peakRSS)
      listPlain.append(other.seconds)

      let written = try await checked(
        command(markedDirectory, ["favorites", "export", "-o", exported.path]), "export")
      let size = try Data(contentsOf: exported).count
      guard size > marked.count else {
        throw BenchError("the export (\(size) bytes) is smaller than what was imported")
      }
      let plainWritten = try await checked(
        command(plainDirectory, ["favorites", "export", "-o", exported.path + ".plain"]),
        "export (plain)")
      export.append(written.seconds)
      exportPeak.append(written.peakRSS)
      exportPlain.append(plainWritten.seconds)
    }
    let hello = try await context.helloPeaks()
    let exportSize = try Double(Data(contentsOf: exported).count) / 1e6
    let plainSize = try Double(Data(contentsOf: exported.appendingPathExtension("plain")).count)
    return [
      ResultRow(
        figure: "16. favorites list, 10,000 + 5 bookmarks", unit: .seconds, samples: list,
        baselineName: "10,000 without", baseline: listPlain,
        target: .none),
      ResultRow(
        figure: "16. peak RSS, favorites list", unit: .bytes, samples: listPeak,
        baselineName: "bench-hello", baseline: hello, target: .atMost(48 * 1_048_576)),
      ResultRow(
        figure: "16. favorites export, 10,000 + 5 bookmarks", unit: .seconds, samples: export,
        baselineName: "10,000 without", baseline: exportPlain, target: .none,
        note: String(
          format: "export document %.1f MB (%.1f MB without bookmarks)", exportSize,
          plainSize / 1e6)),
      ResultRow(
        figure: "16. peak RSS, favorites export", unit: .bytes, samples: exportPeak,
        baselineName: "bench-hello", baseline: hello, target: .atMost(48 * 1_048_576)),
      ResultRow(
        figure: "16. favorites import, 10,000 + 5 bookmarks", unit: .seconds,
        samples: importMarked, baselineName: "10,000 without", baseline: importPlain,
        target: .none),
      ResultRow(
        figure: "16. peak RSS, favorites import", unit: .bytes, samples: importPeak,
        baselineName: "bench-hello", baseline: hello, target: .atMost(48 * 1_048_576),
        note: "the file read a piece at a time, each entry read again as it is written"),
      ResultRow(
        figure: "16. favorites add of 10,000 ids, CPU", unit: .seconds, samples: addCPU,
        baselineName: "import of the same books, CPU", baseline: importCPU, target: .none,
        note: String(
          format: "one transaction for the command; wall median %.2f s, peak RSS %.1f MiB",
          add.median, addPeak.median / 1_048_576)),
    ]
  }
}
