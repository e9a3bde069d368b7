import Foundation
import Testing

@testable import TestSupport

/// A run leaves nothing in the data directory but the stores (and the books it saved): no
/// empty folder from a download that did not happen, and nothing beside `gutenberg/` in the
/// XDG data and cache homes. (Foundation's URLSession, which the program no longer uses, made
/// `~/.local/share/<folder of the executable>` for its cookies, `release/` for a release
/// build, and `~/.cache/org.swift.foundation.URLCache/` on every run.)
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

  @Test func theXDGHomesHoldOnlyTheProgramsFolder() async throws {
    var app = try Gutenberg()
    defer { app.cleanUp() }
    // The standard location: no GUTENBERG_DATA_DIR, XDG variables unset, so `~/.local/share`.
    app.extraEnvironment["GUTENBERG_DATA_DIR"] = ""
    let offline = ["--offline", "--server", "http://127.0.0.1:1"]
    for (arguments, input) in [
      (["list"] + offline, ""), (["status", "--server", "http://127.0.0.1:1"], ""),
      (offline, "/ dickens\nq\n"), (["show", "84"] + offline, ""),
    ] {
      let run = try await app.run(arguments, input: input)
      #expect(run.status == 0, "\(run)")
    }
    let home = app.root
    for folder in [".local/share", ".cache"] {
      let path = home.appendingPathComponent(folder).path
      let entries = try FileManager.default.contentsOfDirectory(atPath: path)
      #expect(entries == ["gutenberg"], "\(folder): \(entries.sorted())")
    }
  }
}
