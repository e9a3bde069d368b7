import Catalog
import Foundation
import Testing

@testable import Terminal

/// The one line a sync at the prompt (or in the background) ends with.
@Suite struct SyncLineTests {
  static func run(_ result: SyncReport.Result, note: String? = nil) -> SyncReport {
    SyncReport(
      started: Date(timeIntervalSince1970: 0), seconds: 0.8, added: 12, updated: 3, requests: 2,
      result: result, note: note)
  }

  @Test func aFailedSyncReadsSyncFailedNotSyncedFailed() {
    let line = InteractiveSession.syncLine(
      Self.run(.failed, note: "server down"), background: false)
    #expect(line == "Sync failed: server down")
    let stopped = InteractiveSession.syncLine(Self.run(.partial, note: "429"), background: false)
    #expect(stopped.hasPrefix("Sync stopped early: 12 new books"), "\(stopped)")
  }

  @Test func aSyncThatWentWellStillReadsSynced() {
    let line = InteractiveSession.syncLine(Self.run(.ok), background: false)
    #expect(line.hasPrefix("Synced: 12 new books, 3 updated"), "\(line)")
    let background = InteractiveSession.syncLine(Self.run(.failed, note: "x"), background: true)
    #expect(background == "Background sync failed: x")
  }
}
