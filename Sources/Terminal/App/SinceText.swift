import Catalog
import Foundation

/// How `new --since` (and the browser's `new SINCE`) is spelled: `last-sync`, a day
/// (`2026-11-20`, from midnight where you are), a moment (`2026-11-20T08:00:00Z`), or a span
/// back from now (`7d`, `12h`, `30m`, `2w`).
package enum SinceText {
  /// What a `--since` value means, or why it means nothing (one line, without `--since: `).
  package static func parse(
    _ text: String, now: Date = Date(), timeZone: TimeZone = .current
  ) -> Result<NewBooks.Since, Failure> {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let shown = Sanitizer.sanitize(trimmed)
    let moment: Date
    if ["last-sync", "last", "lastsync", "last_sync"].contains(trimmed.lowercased()) {
      return .success(.lastSync)
    } else if let span = span(trimmed) {
      moment = now.addingTimeInterval(-span)
    } else if let day = day(trimmed, timeZone: timeZone) {
      moment = day
    } else if let instant = instant(trimmed) {
      moment = instant
    } else {
      return .failure(
        Failure(
          message:
            "'\(shown)' is not a date (YYYY-MM-DD), a span back from now (7d, 12h) or last-sync"))
    }
    guard moment <= now else { return .failure(Failure(message: "\(shown) is in the future")) }
    return .success(.date(moment))
  }

  /// A `--since` value that means nothing.
  package struct Failure: Error, Sendable, Hashable {
    /// One line.
    package var message: String
  }

  /// Seconds back from `7d`, `12h`, `30m`, `2w` (a unit is required: `7` alone is no span).
  static func span(_ text: String) -> TimeInterval? {
    let units: [Character: Double] = ["m": 60, "h": 3600, "d": 86400, "w": 7 * 86400]
    guard let last = text.last, let unit = units[Character(last.lowercased())],
      let number = Int(text.dropLast()), number >= 0, number <= 100_000
    else { return nil }
    return Double(number) * unit
  }

  /// Midnight starting `2026-11-20` in `timeZone`; nil for anything else or no such day.
  static func day(_ text: String, timeZone: TimeZone) -> Date? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let components = DateComponents(year: year, month: month, day: day)
    guard components.isValidDate(in: calendar), let date = calendar.date(from: components)
    else { return nil }
    return date
  }

  /// A moment in ISO 8601 with its zone (`2026-11-20T08:00:00Z`, `…+01:00`).
  static func instant(_ text: String) -> Date? {
    // The parser rolls `25:00` over into the next day: the fields are checked first.
    let halves = text.split(separator: "T", maxSplits: 1)
    guard halves.count == 2, day(String(halves[0]), timeZone: .gmt) != nil else { return nil }
    let clock = halves[1].prefix(8).split(separator: ":").map { Int($0) }
    guard clock.count >= 2, let hour = clock[0], let minute = clock[1], (0...23).contains(hour),
      (0...59).contains(minute),
      clock.count == 2 || (clock[2].map { (0...60).contains($0) } ?? false)
    else { return nil }
    return try? Date(text, strategy: .iso8601)
  }
}
