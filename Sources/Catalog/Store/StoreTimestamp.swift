import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Dates as the store keeps them: whole milliseconds since 1970 UTC, so values round-trip exactly
/// through SQLite and the export format, and ISO-8601 text for export.
enum StoreTimestamp {
  /// The date rounded to the millisecond (clamped to about ±285,000 years).
  static func milliseconds(_ date: Date) -> Int64 {
    milliseconds(seconds: date.timeIntervalSince1970)
  }

  /// A duration or time in seconds as whole milliseconds, clamped so that it never traps (an
  /// infinite `maxAge`, say) and sums of two values cannot overflow.
  static func milliseconds(seconds: Double) -> Int64 {
    let limit = 9e15
    let value = (seconds * 1000).rounded()
    if value.isNaN { return 0 }
    return Int64(max(-limit, min(limit, value)))
  }

  static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// `2025-01-02T03:04:05.123Z` (JavaScript's `toISOString` form, which sorts as text), or
  /// `2025-01-02T03:04:05Z` without `fractional`.
  static func iso8601(milliseconds: Int64, fractional: Bool = true) -> String {
    let (seconds, millis) = floorDivide(milliseconds, 1000)
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    var text =
      pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-"
      + pad(Int(parts.tm_mday), 2) + "T" + pad(Int(parts.tm_hour), 2) + ":"
      + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
    if fractional { text += "." + pad(Int(millis), 3) }
    return text + "Z"
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM|±HHMM)`; nil for anything else or an
  /// impossible date. Digits beyond milliseconds are dropped.
  static func parseISO8601(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    var index = 0
    func number(_ width: Int) -> Int? {
      guard index + width <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<(index + width)] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      index += width
      return value
    }
    func expect(_ characters: String) -> Bool {
      guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"),
      let day = number(2), expect("Tt "), let hour = number(2), expect(":"),
      let minute = number(2), expect(":"), let second = number(2)
    else { return nil }
    var millis = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      var digits = 0
      while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
        if digits < 3 { millis = millis * 10 + Int(bytes[index] - 0x30) }
        digits += 1
        index += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<max(digits, 3) { millis *= 10 }
    }
    var offsetMinutes = 0
    guard index < bytes.count else { return nil }
    if expect("Zz") {
      offsetMinutes = 0
    } else {
      let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
      guard expect("+-"), let hours = number(2) else { return nil }
      _ = expect(":")
      guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
      offsetMinutes = sign * (hours * 60 + minutes)
    }
    guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24,
      minute < 60, second < 61
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    let seconds = timegm(&parts)
    // timegm normalises 31 February into March; a changed day means the date did not exist.
    guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
    return (Int64(seconds) - Int64(offsetMinutes) * 60) * 1000 + Int64(millis)
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
    let remainder = value % divisor
    return remainder < 0
      ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(abs(value))
    let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
    return value < 0 ? "-" + padded : padded
  }
}
