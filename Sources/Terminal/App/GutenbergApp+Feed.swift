import Catalog
import Foundation

extension GutenbergApp {
  /// The line a sync prints about the feed, nil when it did not try one; `isError` when it
  /// failed.
  static func feedLine(_ outcome: FeedReport?) -> (text: String, isError: Bool)? {
    guard let outcome else { return nil }
    switch outcome.result {
    case .refreshed:
      var text = "Feed: \(TextFormat.plural(outcome.books, "book")) read"
      if let note = outcome.note { text += "; \(note)" }
      return (Sanitizer.sanitize(text), false)
    case .unchanged:
      return ("Feed: unchanged since the last refresh (1 request)", false)
    case .failed:
      let note = outcome.note ?? "the feed could not be read"
      return (Sanitizer.sanitize("\(note); the previous catalogue is kept"), true)
    }
  }

  /// `sync --json`'s `feed` object.
  static func feedObject(_ outcome: FeedReport?) -> Any {
    guard let outcome else { return NSNull() }
    return [
      "result": outcome.result.rawValue, "books": outcome.books, "skipped": outcome.skipped,
      "requests": outcome.requests,
      "note": outcome.note.map { Sanitizer.sanitize($0) as Any } ?? NSNull(),
    ] as [String: Any]
  }
}
