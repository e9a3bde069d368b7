import Foundation
import Gutendex
import GutendexEngine
import GutendexServer
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 36's catalogues for the query figures (7 and 12): local catalogues of the embedded
/// snapshot's books once (1x) and four times over (4x: three copies of each under new ids), each
/// installed as a data directory's base, with the same 1,000 new books brought by a real
/// `gutenberg sync` into its delta, so that the two differ in size alone. Built once per run.
@MainActor
enum ScaledCatalogue {
  /// A data directory, and its index files for in-process engines.
  struct Catalogue {
    var dataDirectory: URL
    var books: Int
  }

  private static var built: [Int: Catalogue] = [:]

  /// The catalogue of `scale` (1 or 4) times the snapshot's books, built on first use.
  static func catalogue(_ scale: Int, _ context: BenchContext) async throws -> Catalogue {
    if let known = built[scale] { return known }
    let root = context.scratch.appendingPathComponent("scaled-\(scale)x", isDirectory: true)
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    Report.progress("figures 7 and 12: a local catalogue of \(scale)x the snapshot's books")
    let base = root.appendingPathComponent("base.gdxindex")
    let originals = context.engine.bookIDs
    let books = try CatalogueSnapshot.writeIndex(to: base, keepingSummaries: true) { add in
      for copy in 0..<scale {
        for id in originals {
          guard let json = context.engine.bookJSON(id: id) else { continue }
          try add(copy == 0 ? json : FeedGenerator.copy(json, number: copy))
        }
      }
    }
    // The server: the same base with 1,000 new books, above every id of the 4x catalogue.
    let firstNew = 4 * FeedGenerator.copyStride
    let fresh = try SyncFixture.newBooks(1000, firstID: firstNew, seed: 11)
    let serverBase = try CatalogueSnapshot.engine(mapping: base.path)
    let serverDelta = root.appendingPathComponent("server-delta.gdxindex")
    try serverBase.upsert.deltaIndex(upserting: fresh).index.write(to: serverDelta)
    let server = LoopbackServer(
      handler: try CatalogueSnapshot.engine(mapping: base.path, delta: serverDelta.path))
    let url = try await server.start()
    let data = root.appendingPathComponent("data", isDirectory: true)
    let installed = root.appendingPathComponent("installed.gdxindex")
    try FileManager.default.copyItem(at: base, to: installed)
    try LocalCatalogueFiles(dataDirectory: data).installBase(indexAt: installed)
    let output = root.appendingPathComponent("sync.json").path
    let sync: BenchRun.Outcome
    do {
      sync = try await BenchRun(
        executable: context.binaries.gutenberg,
        arguments: ["sync", "--json", "--server", url.absoluteString, "--data-dir", data.path],
        output: output
      ).run(timeout: .seconds(900))
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
    let report =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output)))
      as? [String: Any]
    guard sync.exitStatus == 0, report?["added"] as? Int == 1000 else {
      throw BenchError("the sync of the \(scale)x catalogue failed: \(report ?? [:])")
    }
    // Flush what was written before anything is timed, so both catalogues are measured with
    // their pages written back: the 1x one, built a minute earlier, already was, and a fresh
    // copy of the 4x files ran 1.07x the 1x in one set of pairs and 1.01x after sync(2)
    // (another set: 1.01x and 1.02x). The pair then differs in size alone.
    flushToDisk()
    let catalogue = Catalogue(dataDirectory: data, books: books + 1000)
    built[scale] = catalogue
    return catalogue
  }

  /// sync(2) (the name `sync` is taken above by the sync's outcome).
  private static func flushToDisk() {
    #if canImport(Glibc)
      Glibc.sync()
    #elseif canImport(Darwin)
      Darwin.sync()
    #endif
  }
}
