import Foundation
import GutendexServer
import Testing

@testable import TestSupport

/// One row of the matrix: a loopback server, a data directory seeded with two favourites and
/// one cached page (French books, page 1), and the means to check both survived the fault.
struct Scenario {
  let server: TestServer
  let app: Gutenberg
  /// `favorites list` (TSV, with the dates added) before the fault.
  let favourites: String
  /// The ids of the cached page, `languages=fr`.
  let cachedIDs: [Int]

  var url: String { server.url.absoluteString }
  /// `host:port` as the messages name the server.
  var hostPort: String { "127.0.0.1:\(server.url.port ?? 0)" }

  /// Starts the server, seeds favourites 84 and 11 and the cached French page.
  static func start(cacheFirstPage: Bool = false) async throws -> Scenario {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    let url = server.url.absoluteString
    let add = try await app.run(["favorites", "add", "84", "11", "--server", url])
    try #require(add.status == 0, "seeding favourites failed: \(add)")
    let french = try await app.run(["list", "--language", "fr", "--server", url])
    try #require(french.status == 0, "seeding the cache failed: \(french)")
    if cacheFirstPage {
      let first = try await app.run(["list", "--server", url])
      try #require(first.status == 0, "seeding the cache failed: \(first)")
    }
    let favourites = try await app.run(["favorites", "list", "--source", "embedded"])
    try #require(favourites.outLines.count == 2, "\(favourites)")
    return Scenario(
      server: server, app: app, favourites: favourites.out,
      cachedIDs: try await server.engineIDs("/books/?languages=fr").ids,
      seedRequestCount: server.server.requestCount)
  }

  /// Runs `body` on a fresh scenario, then stops the server and removes the data directory,
  /// whether `body` passed or threw.
  static func with(
    cacheFirstPage: Bool = false, _ body: (Scenario) async throws -> Void
  ) async throws {
    let row = try await start(cacheFirstPage: cacheFirstPage)
    do {
      try await body(row)
    } catch {
      await row.finish()
      throw error
    }
    await row.finish()
  }

  /// Sets the faults for the requests from now on.
  func inject(_ faults: FaultPlan) {
    server.server.faults = faults
  }

  /// Runs the binary against this server (`--server` appended).
  func run(_ arguments: [String], input: String = "") async throws -> Gutenberg.Run {
    try await app.run(arguments + ["--server", url], input: input)
  }

  /// How many requests the seeding made.
  let seedRequestCount: Int

  /// The request targets the server received since the seeding.
  var requests: [String] {
    Array(server.server.requests.dropFirst(seedRequestCount))
  }

  /// Favourites identical to before (dates included), and the cached page still served.
  func expectStoresIntact(sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let favourites = try await app.run(["favorites", "list", "--source", "embedded"])
    #expect(favourites.status == 0, "\(favourites)", sourceLocation: sourceLocation)
    #expect(favourites.out == self.favourites, "\(favourites)", sourceLocation: sourceLocation)
    // Offline, the French page can only come from the cache.
    let cached = try await app.run(["list", "--offline", "--language", "fr", "--server", url])
    #expect(cached.status == 0, "\(cached)", sourceLocation: sourceLocation)
    #expect(
      cached.err.contains("offline — showing cached page from"), "\(cached)",
      sourceLocation: sourceLocation)
    let ids = cached.outLines.compactMap { Int($0.split(separator: "\t").first ?? "") }
    #expect(ids == cachedIDs, "\(cached)", sourceLocation: sourceLocation)
  }

  func finish() async {
    await server.stop()
    app.cleanUp()
  }
}

extension Gutenberg.Run {
  /// Nothing a user would read as a JSON decoding failure or an HTML error page.
  var showsNoDecodingNoise: Bool {
    let text = (out + err).lowercased()
    return !text.contains("decod") && !text.contains("<html") && !text.contains("json")
  }

  /// The ids of TSV lines on standard output.
  var tsvIDs: [Int] {
    outLines.compactMap { Int($0.split(separator: "\t").first ?? "") }
  }
}
