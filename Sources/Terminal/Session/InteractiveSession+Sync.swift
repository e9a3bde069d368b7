import Catalog
import Foundation

extension InteractiveSession {
  /// `sync` at the prompt: brings the local catalogue up to date and says how in one line.
  func syncNow() async {
    do {
      let run = try await service.syncCatalogue()
      output.print(Self.syncLine(run, background: false))
      if let found = await service.arrivals(of: run),
        let line = GutenbergApp.arrivalLine(found, hint: "type new")
      {
        output.print(line)
      }
    } catch {
      output.print(errorLine(error.description))
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
