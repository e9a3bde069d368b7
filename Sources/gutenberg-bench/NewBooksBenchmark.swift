import Foundation
import GutendexEngine
import GutendexServer
import TestSupport

/// Figure 19 (issue 28): `gutenberg new` after a sync of 1,000 new books, in a cold process,
/// against a plain `list` of the same local catalogue in the same run (both piped to a file).
@MainActor
enum NewBooksBenchmark {
  static func run(_ context: BenchContext) async throws -> [ResultRow] {
    let runs = context.count(15, minimum: 5)
    Report.progress("figure 19: a server of the snapshot plus 1,000 new books, one sync")
    let newBooks = try SyncFixture.newBooks(
      1000, firstID: (context.engine.bookIDs.last ?? 80_000) + 1)
    let merged = try context.engine.upsert.mergedIndex(upserting: newBooks)
    let server = LoopbackServer(handler: try CatalogueSnapshot.engine(from: merged.index))
    let url = try await server.start()
    let output = context.scratch.appendingPathComponent("new.txt")
    let data = try context.dataDirectory("new-books")

    func gutenberg(_ arguments: [String]) async throws -> BenchRun.Outcome {
      let outcome = try await BenchRun(
        executable: context.binaries.gutenberg, arguments: arguments + ["--data-dir", data.path],
        output: output.path
      ).run(timeout: .seconds(300))
      guard outcome.exitStatus == 0 else {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        throw BenchError("gutenberg \(arguments.joined(separator: " ")) failed: \(text)")
      }
      return outcome
    }

    // Four favourites, whose authors, subjects and shelves rank the new books.
    do {
      _ = try await gutenberg(["favorites", "add", "--source", "local", "84", "1342", "2701", "11"])
      _ = try await gutenberg(["sync", "--server", url.absoluteString])
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
    func rows() throws -> Int {
      try String(contentsOf: output, encoding: .utf8).split(separator: "\n").count
    }
    _ = try await gutenberg(["new", "--all"])
    guard try rows() == 1000 else { throw BenchError("new --all listed \(try rows()), not 1,000") }

    Report.progress("figure 19: \(runs) cold runs each of new and list")
    var new = Samples()
    var list = Samples()
    for _ in 0..<runs {
      list.append(try await gutenberg(["list", "--source", "local"]).seconds)
      new.append(try await gutenberg(["new"]).seconds)
      // The first page, ranked among the 1,000: as many rows as the list's page.
      guard try rows() == 32 else { throw BenchError("new listed \(try rows()) books, not 32") }
    }
    return [
      ResultRow(
        figure: "19. new after a sync of 1,000 books, cold", unit: .seconds, samples: new,
        baselineName: "list --source local, cold", baseline: list,
        target: .atMost(1.2 * list.median),
        note: "the first 32 of 1,000 ranked against 4 favourites, piped; list prints a page of 32")
    ]
  }
}
