import Foundation

/// Locale-independent formatting of numbers, plurals, years, ages, sizes and dates, so every
/// screen reads the same on every machine (and the captures in `Screens/` stay stable).
package enum TextFormat {
  /// `76696` as `76,696`: comma-grouped thousands whatever the locale.
  package static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = ""
    result.reserveCapacity(digits.count + digits.count / 3 + 1)
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return number < 0 ? "-" + result : result
  }

  /// `1 book`, `0 books`, `76,696 books`; `plural` for irregular nouns (`2 entries`).
  package static func plural(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    let noun = count == 1 ? singular : (plural ?? singular + "s")
    return "\(grouped(count)) \(noun)"
  }
}
