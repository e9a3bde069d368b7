import Catalog
import Foundation

/// `gutenberg status`: asks the server whether it answers, then shows the server, the source,
/// the favourites, the cache, the local catalogue and its syncs, and the recent requests.
package struct StatusRunner: CommandRunner {
  let context: AppContext

  /// A runner over `context`.
  package init(context: AppContext) {
    self.context = context
  }

  /// Shows the status, as lines or JSON.
  package func run(format: ListFormat) async -> ExitStatus {
    let model = StatusViewModel(service: service)
    let settled = await SettledState.after(observe: model.observe, load: \.load) {
      await model.refresh(probe: true)
    }
    guard let state = settled else { return fail(.cancelled) }
    if let error = state.load.error { return fail(error) }
    switch format {
    case .json:
      var object: [String: Any] = [
        "server": state.server.redacted,
        "server_answers": state.serverAnswers.map { $0 as Any } ?? NSNull(),
        "source": state.mode == .localOnly ? "local" : "auto",
        "favorites": state.favoritesCount ?? 0,
        "favorites_refreshed": state.favoritesRefreshed.map(JSONText.iso8601) ?? NSNull(),
      ]
      if let cache = state.cache {
        object["cache"] = [
          "entries": cache.entries, "bytes": cache.bytes, "path": cache.path.path,
          "oldest": cache.oldest.map(JSONText.iso8601) ?? NSNull(),
        ]
      }
      if let sync = state.sync { object["catalogue"] = Self.syncObject(sync) }
      output.print(JSONText.object(object))
    case .automatic:
      var screen = ScreenMapping.status(state, page: nil, now: Date())
      // A one-shot command: the browser's keys would mean nothing here.
      screen.hints = []
      output.print(
        screen.lines(width: output.isTerminal ? output.width : 100, style: output.style))
    }
    return .ok
  }

  /// The `catalogue` object of `status --json`.
  nonisolated static func syncObject(_ sync: SyncStatus) -> [String: Any] {
    [
      "snapshot": sync.snapshotDate, "snapshot_books": sync.snapshotBooks,
      "synced_books": sync.syncedBooks, "books": sync.books, "base_books": sync.baseBooks,
      "added_books": sync.addedBooks,
      "as_of": sync.lastSuccess.map(JSONText.iso8601) ?? NSNull(),
      "local_first": sync.localFirst,
      "fresh_until": sync.freshUntil.map(JSONText.iso8601) ?? NSNull(),
      "next_sync_due": sync.nextSyncDue.map(JSONText.iso8601) ?? NSNull(),
      "last_sync": sync.lastRun.map(SyncText.object) ?? NSNull(),
      "problem": sync.problem.map { Sanitizer.sanitize($0) } ?? NSNull(),
    ]
  }
}
