import Foundation
import Testing

@testable import TestSupport

/// A run leaves nothing in the data directory but the stores (and the books it saved): no
/// empty folder from a download that did not happen.
@Suite(.serialized)
struct DataHomeTests {
  static let stores: Set<String> = [
    "favorites.sqlite", "favorites.sqlite-wal", "favorites.sqlite-shm", "cache",
  ]

  @Test func runsThatSaveNoBookLeaveOnlyTheStores() async throws {
    let app = try Gutenberg()
    defer { app.cleanUp() }
    let offline = ["--offline", "--server", "http://127.0.0.1:1"]
    for (arguments, input) in [
      (["list", "--source", "embedded"], ""), (["status"] + offline, ""),
      (offline, "read 1\nd 1\nq\n"), (["read", "84"] + offline, ""),
      (["get", "84", "-o", app.root.path + "/"] + offline, ""),
    ] {
      _ = try await app.run(arguments, input: input)
      let entries = try FileManager.default.contentsOfDirectory(atPath: app.dataDirectory.path)
      #expect(Set(entries).isSubset(of: Self.stores), "after \(arguments): \(entries.sorted())")
    }
  }
}
