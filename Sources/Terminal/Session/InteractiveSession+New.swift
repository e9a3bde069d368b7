import Catalog
import Foundation
import Gutendex

/// `sync` and `new` at the prompt: what the catalogue did, said under the screen, and what
/// syncs added, on a screen of its own.
extension InteractiveSession {
  /// `new [SINCE] [all]`: the books syncs added (in the languages the list is filtered to; the
  /// first 32 unless `all`), those by authors you keep first.
  func showNew(_ since: NewBooks.Since, _ all: Bool, _ languages: [String]) async {
    do {
      let found = try await service.newBooks(
        since: since, languages: languages, limit: all ? nil : BookQuery.pageSize)
      if let note = NewRunner.damageNote(found) { send(.said(note)) }
      // Shown: no longer new to the user (a language filter shows only some of them).
      if languages.isEmpty { service.markNewBooksSeen(found) }
      send(.newBooks(found))
    } catch {
      send(.failed(error.description))
    }
  }

  /// `sync`: brings the local catalogue up to date and says how in one line.
  func syncNow() async {
    do {
      let run = try await service.syncCatalogue()
      send(.said(Self.syncLine(run, background: false)))
      if let found = await service.arrivals(of: run),
        let line = NewRunner.arrivalLine(found, hint: "type new")
      {
        send(.said(line))
      }
    } catch {
      send(.failed(error.description))
    }
  }

  /// `Synced: 12 new books, 3 updated, 2 requests, 0.8 s`, or why it stopped.
  nonisolated static func syncLine(_ run: SyncReport, background: Bool) -> String {
    // "Synced: …" reads well; "Synced failed" does not, so the other outcomes name the sync.
    let what = background ? "Background sync" : "Sync"
    switch run.result {
    case .ok:
      return "\(background ? what : "Synced"): \(SyncText.summary(run))"
    case .partial:
      return
        "\(what) stopped early: \(SyncText.summary(run)) (\(Sanitizer.sanitize(run.note ?? "")))"
    case .failed:
      return "\(what) failed: \(Sanitizer.sanitize(run.note ?? "unknown error"))"
    }
  }
}
