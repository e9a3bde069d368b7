import Catalog
import Foundation

/// How syncs read on a terminal and in JSON, and how `--max-age 7d` is spelled.
package enum SyncText {
  /// `12 new books, 3 updated, 2 requests, 0.8 s`; with books removed, `…, 3 removed, …`;
  /// with Project Gutenberg's files or feed as sources, the bytes received and each source's
  /// requests: `20 new books, 10 updated, 31 requests, 96.2 KiB, 1.3 s (today.rss 1,
  /// records 30)`. Every figure comes from the run's one record of its sources.
  package static func summary(_ run: SyncReport) -> String {
    var line =
      "\(TextFormat.plural(run.added, "new book")), \(TextFormat.grouped(run.updated)) updated, "
    if run.removed > 0 { line += "\(TextFormat.grouped(run.removed)) removed, " }
    line += TextFormat.plural(run.requests, "request")
    if let bytes = run.bytes { line += ", \(TextFormat.bytes(Int(bytes)))" }
    line += ", \(seconds(run.seconds))"
    let named = run.sources.filter { $0.source != .api }
    if !named.isEmpty {
      let parts = run.sources.map { source in
        source.unchanged ? "\(source.name) unchanged" : "\(source.name) \(source.requests)"
      }
      line += " (\(parts.joined(separator: ", ")))"
    }
    return line
  }

  /// `0.8 s`, `12 s`.
  static func seconds(_ value: Double) -> String {
    value < 10 ? String(format: "%.1f s", value) : "\(Int(value.rounded())) s"
  }

  /// One line of `sync --log`: when, result, figures, and the note when there is one.
  static func logLine(_ run: SyncReport, timeZone: TimeZone) -> String {
    let when =
      "\(TextFormat.date(run.started, timeZone: timeZone)) "
      + TextFormat.time(run.started, timeZone: timeZone)
    var line = "\(when)  \(run.result.rawValue)\(isFull(run) ? " (full)" : "")  \(summary(run))"
    if let note = run.note { line += "  (\(Sanitizer.sanitize(note)))" }
    return line
  }

  /// Whether the run read the whole catalogue (`--full`, or a feed read whole).
  static func isFull(_ run: SyncReport) -> Bool {
    run.full || run.feed?.result == .refreshed
  }

  /// A run as a JSON object (the keys `sync --json`, `sync --log --json` and `status --json`
  /// share): the totals and, under `sources`, what each source did.
  static func object(_ run: SyncReport) -> [String: Any] {
    [
      "started": run.started.formatted(.iso8601), "seconds": (run.seconds * 1000).rounded() / 1000,
      "added": run.added, "updated": run.updated, "removed": run.removed,
      "requests": run.requests, "bytes": run.bytes.map { Int($0) as Any } ?? NSNull(),
      "result": run.result.rawValue, "full": isFull(run),
      "note": run.note.map { Sanitizer.sanitize($0) as Any } ?? NSNull(),
      "sources": run.sources.map { source -> [String: Any] in
        [
          "source": source.name, "requests": source.requests, "bytes": Int(source.bytes),
          "added": source.added, "changed": source.changed, "removed": source.removed,
          "skipped": source.skipped, "unchanged": source.unchanged,
        ]
      },
    ]
  }

  /// A span ahead: `under a minute`, `5 min`, `23 h`, `2 days` (``TextFormat/age(_:)`` without
  /// its `ago`).
  static func span(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite, seconds >= 60 else { return "under a minute" }
    return String(TextFormat.age(seconds).dropLast(" ago".count))
  }

  /// Seconds from `90`, `45s`, `30m`, `12h` or `7d`; nil when it is none of those or not
  /// positive.
  package static func duration(_ text: String) -> Double? {
    let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
    var number = Substring(text.trimmingCharacters(in: .whitespaces))
    var unit = 1.0
    if let last = number.last, let scale = units[last] {
      unit = scale
      number = number.dropLast()
    }
    guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
    return value * unit
  }

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
