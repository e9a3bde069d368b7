import Foundation
import Gutendex
import GutendexEngine
import TestSupport
import Testing

@testable import Catalog

/// When the browser syncs next: a day after a sync that went well; soon after one that failed,
/// backing off while failures repeat, never later than the day.
struct SyncBackoffTests {
  static func service(_ directory: URL) throws -> CatalogService {
    let favorites = try FavoritesStore(
      databaseURL: directory.appendingPathComponent("favorites.sqlite"))
    let client = GutendexClient(
      server: URL(string: "http://127.0.0.1")!, transport: try GutendexDouble(books: []),
      retry: .none)
    return CatalogService(
      client: client, favorites: favorites, cache: nil,
      local: LocalCatalogue(dataDirectory: directory, policy: SyncPolicy()), mode: .automatic,
      now: { Date(timeIntervalSince1970: 1_000_000) })
  }

  static func state(_ results: [SyncRun.Result]) -> SyncState {
    var state = SyncState(snapshotDate: "2025-08", bookCount: 10)
    for (number, result) in results.enumerated() {
      state.record(
        SyncRun(
          started: Date(timeIntervalSince1970: Double(number) * 10_000), seconds: 5, added: 0,
          updated: 0, requests: 1, result: result))
    }
    return state
  }

  @Test func aFailedSyncIsRetriedSoonWithBackoffNotADayLater() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "backoff-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let service = try Self.service(directory)
    let day = SyncPolicy().interval
    func due(_ results: [SyncRun.Result]) throws -> TimeInterval {
      let state = Self.state(results)
      let last = try #require(state.lastRun)
      let due = try #require(service.nextSyncDue(state: state))
      return due.timeIntervalSince(last.started) - last.seconds
    }
    #expect(try due([.ok]) == day)
    #expect(try due([.ok, .failed]) == 60)
    #expect(try due([.ok, .failed, .partial]) == 240)
    #expect(try due([.failed, .failed, .failed]) == 960)
    #expect(try due(Array(repeating: .failed, count: 15)) == day)
    #expect(try due([.failed, .ok]) == day)
  }
}
