import Catalog
import Foundation

extension GutenbergApp {
  /// The feed refresh policy: `--feed-url` or `GUTENBERG_FEED_URL` (Project Gutenberg's file by
  /// default), `--feed-max-age` or `GUTENBERG_FEED_MAX_AGE` (`7d` by default; `never` leaves
  /// the feed to `sync --feed`), forced by `sync --feed` and `sync --full`.
  static func feedPolicy(
    _ environment: [String: String], url: String? = nil, maxAge: String? = nil,
    force: Bool = false
  ) throws(AppStartError) -> FeedOptions {
    func usage(_ message: String) -> AppStartError {
      AppStartError(message: Sanitizer.sanitize(message), status: .usage)
    }
    var policy = FeedOptions(force: force)
    // The feed keeps the rule book files keep: GUTENBERG_MIN_SPEED, 1,024 bytes/s over 60 s.
    do {
      policy.minimumSpeed = try AppOptions(environment: environment).minimumSpeed()
    } catch {
      throw usage(error.message)
    }
    let urlText = url ?? environment["GUTENBERG_FEED_URL"].flatMap { $0.isEmpty ? nil : $0 }
    if let urlText {
      guard let parsed = URL(string: urlText), ["http", "https"].contains(parsed.scheme ?? ""),
        parsed.host != nil
      else {
        let origin = url == nil ? "GUTENBERG_FEED_URL" : "--feed-url"
        throw usage("\(origin): '\(urlText)' is not an http(s) URL")
      }
      policy.url = parsed
    }
    let ageText = maxAge ?? environment["GUTENBERG_FEED_MAX_AGE"].flatMap { $0.isEmpty ? nil : $0 }
    if let ageText {
      if ["never", "off"].contains(ageText.lowercased()) {
        policy.maxAge = nil
      } else if let seconds = SyncText.duration(ageText) {
        policy.maxAge = seconds
      } else {
        let origin = maxAge == nil ? "GUTENBERG_FEED_MAX_AGE" : "--feed-max-age"
        throw usage("\(origin): '\(ageText)' is not a duration like 7d (or never)")
      }
    }
    return policy
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
