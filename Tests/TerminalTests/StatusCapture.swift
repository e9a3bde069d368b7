import Foundation
import Gutendex
import GutendexEngine

@testable import Catalog
@testable import Terminal

/// The status screen's capture: a `StatusViewModel.State` as the view model publishes it after
/// an afternoon of browsing, drawn through `ScreenMapping.status`, as `s` draws it.
enum StatusCapture {
  static func state() -> StatusViewModel.State {
    func at(_ seconds: Double) -> Date { SampleScreens.now.addingTimeInterval(-seconds) }
    func entry(
      _ seconds: Double, _ url: String, status: Int?, error: String? = nil,
      milliseconds: Int64, _ origin: RequestLog.Entry.Origin
    ) -> RequestLog.Entry {
      RequestLog.Entry(
        method: origin == .network ? "GET" : nil, date: at(seconds), url: url, status: status,
        error: error, duration: .milliseconds(milliseconds), origin: origin)
    }
    // The reader's place, pushed to a KOReader progress server as the book was closed.
    var push = entry(
      60, "https://sync.example.org/syncs/progress", status: 200, milliseconds: 156, .network)
    push.method = "PUT"
    // Newest first, as `RequestLog.recent` gives them.
    let requests = [
      push,
      entry(95, "https://gutendex.com/books/2554/", status: 200, milliseconds: 412, .network),
      entry(180, "cache: page=2", status: nil, milliseconds: 2, .cache),
      entry(300, "https://gutendex.com/books/?page=2", status: 200, milliseconds: 1_234, .network),
      entry(420, "https://gutendex.com/books/", status: 429, milliseconds: 88, .network),
      entry(
        600, "local: languages=ru", status: nil, error: nil, milliseconds: 31, .local),
      entry(
        610, "https://gutendex.com/books/?languages=ru", status: nil,
        error: "gutendex.com did not answer within 10 s", milliseconds: 10_000, .network),
    ]
    return StatusViewModel.State(
      server: URL(string: "https://gutendex.com")!, mode: .automatic, serverAnswers: true,
      checkedAt: at(95), network: .online, localCatalogue: "embedded catalogue of 2025-08",
      favoritesCount: 7, favoritesRefreshed: at(3 * 3_600 + 120),
      cache: CacheInfo(
        entries: 48, bytes: 1_258_291, oldest: at(2 * 86_400 + 600), newest: at(180),
        path: URL(fileURLWithPath: "/home/reader/.cache/gutenberg/pages.sqlite")),
      requests: requests, load: .loaded(.network),
      // Synced 9 days ago: older than the 7-day window, so the server answers first again,
      // and the daily background sync is due.
      sync: SyncStatus(
        snapshotDate: "2025-08", snapshotBooks: 76_120, syncedBooks: 1_596,
        lastRun: SyncReport(
          started: at(9 * 86_400 + 60), seconds: 1.4, added: 1_020, updated: 576, requests: 35,
          result: .ok),
        lastSuccess: at(9 * 86_400), localFirst: false, freshUntil: nil, nextSyncDue: at(8 * 86_400)
      ))
  }

  static func lines() -> [String] {
    ScreenMapping.status(
      state(), page: .network, now: SampleScreens.now, timeZone: SampleScreens.utc
    )
    .lines(width: 100, style: .plain)
  }
}
