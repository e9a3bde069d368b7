import Foundation
import Gutendex
import TestSupport
import TestTraits
import Testing

@testable import Catalog

extension StoreLockWaitSuites {
  /// Several connections and processes writing one favourites file lose no update.
  ///
  /// Each worker toggles its own ids an odd number of times (so each must end as a favourite) and
  /// one id shared by every worker (so the shared id must end as it started). Toggles are atomic
  /// exactly when the shared id's `true` results add up to half its toggles: a read-then-write
  /// race would let two workers both add or both remove it.
  @Suite(.ownThread) struct StoreConcurrencyTests {
    static let rounds = 201
    static let sharedID = 1_000_000

    /// Toggles `ids` and the shared id `rounds` times each; returns how often the shared id
    /// became a favourite.
    static func toggleWorker(_ store: FavoritesStore, ids: ClosedRange<Int>) throws -> Int {
      let shared = Book(id: sharedID, title: "Shared")
      var sharedAdds = 0
      for _ in 0..<rounds {
        for id in ids { _ = try store.toggle(Book(id: id, title: "Book \(id)")) }
        if try store.toggle(shared) { sharedAdds += 1 }
      }
      return sharedAdds
    }

    @Test func twoPoolsTogglingConcurrentlyLoseNoUpdate() async throws {
      try await withAsyncScratchDirectory { directory in
        let url = directory.appendingPathComponent("favorites.sqlite")
        let first = try FavoritesStore(databaseURL: url)
        let second = try FavoritesStore(databaseURL: url)
        let work: [(FavoritesStore, ClosedRange<Int>)] = [(first, 1...5), (second, 6...10)]
        let sharedAdds = try await withThrowingTaskGroup(of: Int.self) { group in
          for (store, ids) in work {
            group.addTask { try Self.toggleWorker(store, ids: ids) }
          }
          return try await group.reduce(0, +)
        }
        #expect(sharedAdds == Self.rounds)
        #expect(try first.isFavorite(Self.sharedID) == false)
        #expect(try second.favoriteIDs(among: Array(1...10)) == Set(1...10))
        #expect(try first.count() == 10)
      }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/proc/self/exe")))
    func twoProcessesWritingOneFileLoseNoUpdate() async throws {
      // It blocks (polls, waits for the child test process): on a thread of its own, not the
      // pool the parallel suites share.
      try await OwnThread.run {
        try withScratchDirectory { directory in
          let url = directory.appendingPathComponent("favorites.sqlite")
          let store = try FavoritesStore(databaseURL: url)
          let resultFile = directory.appendingPathComponent("child-result.txt")
          let logFile = directory.appendingPathComponent("child-log.txt")
          #expect(FileManager.default.createFile(atPath: logFile.path, contents: nil))

          // Run this same test binary again, selecting only the child test below.
          let child = Process()
          child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
          child.arguments = [
            "--testing-library", "swift-testing", "--filter", "storeChildProcessWriter",
          ]
          // Leave out the test library's own settings (event streams etc.) meant for this process.
          var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SWT_") }
          environment["GUTENBERG_STORE_CHILD_DB"] = url.path
          environment["GUTENBERG_STORE_CHILD_RESULT"] = resultFile.path
          child.environment = environment
          let log = try FileHandle(forWritingTo: logFile)
          child.standardOutput = log
          child.standardError = log
          child.standardInput = FileHandle.nullDevice
          try child.run()
          // Start together: wait (without any time limit that could fail a slow machine) until
          // the child has opened the file, or has exited early.
          let ready = resultFile.path + ".ready"
          while !FileManager.default.fileExists(atPath: ready) && child.isRunning {
            usleep(2_000)
          }

          let parentAdds = try Self.toggleWorker(store, ids: 1...5)
          // Only a guard against a hung child (10 minutes), not a speed requirement.
          let deadline = Date().addingTimeInterval(600)
          while child.isRunning && Date() < deadline { usleep(10_000) }
          if child.isRunning {
            child.terminate()
            Issue.record("the child process did not finish within 10 minutes")
          }
          child.waitUntilExit()
          try log.close()
          let childLog = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
          #expect(child.terminationStatus == 0, "child failed:\n\(childLog.suffix(3_000))")
          let childAdds = try #require(
            Int(String(contentsOf: resultFile, encoding: .utf8)),
            "child log:\n\(childLog.suffix(3_000))")

          #expect(parentAdds + childAdds == Self.rounds)
          #expect(try store.isFavorite(Self.sharedID) == false)
          #expect(try store.favoriteIDs(among: Array(1...10)) == Set(1...10))
          #expect(try store.count() == 10)
        }
      }
    }

    /// In the child process: toggles ids 6…10 and the shared id in the parent's file and writes
    /// its count of shared adds. Run on its own, it does the same work alone in a scratch file.
    @Test func storeChildProcessWriter() throws {
      let environment = ProcessInfo.processInfo.environment
      if let path = environment["GUTENBERG_STORE_CHILD_DB"],
        let result = environment["GUTENBERG_STORE_CHILD_RESULT"]
      {
        let store = try FavoritesStore(databaseURL: URL(fileURLWithPath: path))
        #expect(FileManager.default.createFile(atPath: result + ".ready", contents: nil))
        let adds = try Self.toggleWorker(store, ids: 6...10)
        try String(adds).write(toFile: result, atomically: true, encoding: .utf8)
        #expect((0...Self.rounds).contains(adds))
      } else {
        try withScratchDirectory { directory in
          let store = try FavoritesStore(
            databaseURL: directory.appendingPathComponent("favorites.sqlite"))
          // Alone, the shared id alternates: added on every odd toggle.
          #expect(try Self.toggleWorker(store, ids: 6...10) == (Self.rounds + 1) / 2)
          #expect(try store.favoriteIDs(among: Array(1...40)) == Set(6...10))
          #expect(try store.isFavorite(Self.sharedID) == (Self.rounds % 2 == 1))
        }
      }
    }
  }
}
