import Catalog
import Foundation

/// How a record of another device reads: `Kobo is at 42%, 2 h ago`.
enum ProgressText {
  /// `42%`, `0.5%` for less than one, `100%`.
  static func percent(_ fraction: Double) -> String {
    let value = max(0, min(1, fraction.isFinite ? fraction : 0)) * 100
    if value > 0, value < 1 { return String(format: "%.1f%%", value) }
    return "\(Int(value.rounded(.down)))%"
  }

  /// The device's name, made safe for the terminal.
  static func device(_ record: RemoteProgress) -> String {
    let name = Sanitizer.sanitize(record.device).trimmingCharacters(in: .whitespaces)
    return DisplayWidth.truncate(name.isEmpty ? "another device" : name, toCells: 40)
  }

  /// `2 h ago`, or nothing when the server gave no time.
  static func age(_ record: RemoteProgress, now: Date = Date()) -> String? {
    record.date.map { TextFormat.age(now.timeIntervalSince($0)) }
  }

  /// `Kobo is at 42%, 2 h ago`.
  static func line(_ record: RemoteProgress, now: Date = Date()) -> String {
    "\(device(record)) is at \(percent(record.percentage))"
      + (age(record, now: now).map { ", \($0)" } ?? "")
  }

  /// `on Kobo: 42%, 2 h ago` (the details' line).
  static func detail(_ record: RemoteProgress, now: Date = Date()) -> String {
    "on \(device(record)): \(percent(record.percentage))"
      + (age(record, now: now).map { ", \($0)" } ?? "")
  }
}
