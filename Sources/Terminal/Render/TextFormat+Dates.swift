import Foundation

extension TextFormat {
  /// A person's years, such as `1812–1870`, `750 BC–650 BC`, `1950–?`, `?–1870`, or empty when
  /// both are unknown. Negative years are BCE; an unknown year reads `?`.
  package static func years(birth: Int?, death: Int?) -> String {
    switch (birth, death) {
    case (nil, nil): ""
    case (let birth?, nil): "\(year(birth))–?"
    case (nil, let death?): "?–\(year(death))"
    case (let birth?, let death?): "\(year(birth))–\(year(death))"
    }
  }

  /// A year as a person reads it: `1812`, or `750 BC` for −750.
  package static func year(_ year: Int) -> String {
    year < 0 ? "\(year.magnitude) BC" : String(year)
  }

  /// A name followed by its years in parentheses when any is known: `Dickens, Charles
  /// (1812–1870)`; sanitised.
  package static func person(name: String, birth: Int?, death: Int?) -> String {
    let cleanName = Sanitizer.sanitize(name)
    let span = years(birth: birth, death: death)
    if span.isEmpty { return cleanName.isEmpty ? "unknown" : cleanName }
    return cleanName.isEmpty ? "unknown (\(span))" : "\(cleanName) (\(span))"
  }

  /// How long ago something happened, `age` seconds before now: `just now`, `5 min ago`,
  /// `3 h ago`, `1 day ago`, `12 days ago`. Negative ages (clock skew) read `just now`.
  package static func age(_ age: TimeInterval) -> String {
    guard age.isFinite, age >= 60 else { return "just now" }
    let minutes = Int(age / 60)
    if minutes < 60 { return "\(minutes) min ago" }
    let hours = minutes / 60
    if hours < 24 { return "\(hours) h ago" }
    let days = hours / 24
    return days == 1 ? "1 day ago" : "\(grouped(days)) days ago"
  }

  /// A byte count in binary units, named as such, with one decimal: `812 B`, `1.2 KiB`, `48.0 MiB`.
  package static func bytes(_ count: Int) -> String {
    if count < 1024 { return "\(grouped(count)) B" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(count) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
  }

  /// A calendar date `2026-11-21` in `timeZone` (Gregorian, whatever the locale).
  package static func date(_ date: Date, timeZone: TimeZone) -> String {
    let parts = calendar(timeZone).dateComponents([.year, .month, .day], from: date)
    return "\(pad4(parts.year ?? 0))-\(pad2(parts.month ?? 0))-\(pad2(parts.day ?? 0))"
  }

  /// A time of day `06:21:09` in `timeZone`.
  package static func time(_ date: Date, timeZone: TimeZone) -> String {
    let parts = calendar(timeZone).dateComponents([.hour, .minute, .second], from: date)
    return "\(pad2(parts.hour ?? 0)):\(pad2(parts.minute ?? 0)):\(pad2(parts.second ?? 0))"
  }

  private static func calendar(_ timeZone: TimeZone) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar
  }

  private static func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

  private static func pad4(_ value: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
  }
}
