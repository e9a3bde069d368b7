import Foundation
import TestTraits
import Testing

@testable import TestSupport

/// With no server at all (nothing listens on 127.0.0.1:1) and with `--source embedded`, the
/// binary browses, searches and keeps favourites from the embedded catalogue.
@Suite(.serialized, .ownThread)
struct EmbeddedCatalogueTests {
  static let deadServer = "http://127.0.0.1:1"

  @Test func unreachableServerFallsBackToTheEmbeddedCatalogue() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }

    let run = try await app.run(
      ["--server", Self.deadServer], input: "n\n/ frankenstein shelley\nf 1\nF\nq\n")

    #expect(run.status == 0, "\(run)")
    #expect(run.out.contains("offline — embedded catalogue of 2025-08"), "\(run)")
    #expect(run.out.contains("all books · page 2 of 2,"), "\(run)")
    #expect(run.out.contains("Added to favourites: Frankenstein"), "\(run)")
    let list = try await app.run(["favorites", "list", "--server", Self.deadServer])
    #expect(list.status == 0, "\(list)")
    #expect(list.outLines.count == 1 && list.out.hasPrefix("84\tFrankenstein"), "\(list)")
  }

  @Test func sourceEmbeddedNeverUsesTheNetwork() async throws {
    let server = try await TestServer.start()
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let url = server.url.absoluteString

    let run = try await app.run(
      ["--source", "embedded", "--server", url], input: "/ moby dick melville\nf 1\nq\n")
    let list = try await app.run(
      ["list", "--source", "embedded", "--server", url, "--search", "moby dick melville"])
    let environment = try await {
      var app = app
      app.extraEnvironment["GUTENBERG_SOURCE"] = "embedded"
      return try await app.run(["show", "2701", "--server", url])
    }()
    await server.stop()

    #expect(run.status == 0, "\(run)")
    #expect(run.out.contains("embedded catalogue of 2025-08"), "\(run)")
    #expect(!run.out.contains("offline —"), "\(run)")
    #expect(run.out.contains("Added to favourites: Moby Dick"), "\(run)")
    #expect(list.status == 0, "\(list)")
    #expect(list.outLines.first?.hasPrefix("2701\tMoby Dick; Or, The Whale\t") == true, "\(list)")
    #expect(environment.status == 0, "\(environment)")
    #expect(environment.out.hasPrefix("Moby Dick"), "\(environment)")
    #expect(server.server.requestCount == 0, "\(server.server.requests)")
    #expect(try await app.favoriteIDs() == [2701])
  }
}
