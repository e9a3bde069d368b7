import Foundation

/// The JSON the commands print: pretty, keys sorted, slashes as they are; dates in ISO 8601.
enum JSONText {
  /// `date` as `2026-11-21T06:30:00Z`.
  static func iso8601(_ date: Date) -> String {
    date.formatted(.iso8601)
  }

  /// An object as pretty JSON.
  static func object(_ object: [String: Any]) -> String {
    text(object as Any, empty: "{}")
  }

  /// Pretty JSON with sorted keys (an object or an array); `empty` if it cannot be encoded.
  static func text(_ value: Any, empty: String) -> String {
    let data =
      (try? JSONSerialization.data(
        withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]))
      ?? Data(empty.utf8)
    return String(decoding: data, as: UTF8.self)
  }
}
