import Foundation

/// The JSON the commands print: pretty, keys sorted, slashes as they are; dates in ISO 8601;
/// and nothing in it a terminal would act on (``safe(_:)``).
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
    return raw(data)
  }

  /// JSON kept as the server (or the store) gave it, such as a book's `rawJSON`, made
  /// ``safe(_:)`` to print.
  static func raw(_ json: some Collection<UInt8>) -> String {
    safe(String(decoding: json, as: UTF8.self))
  }

  /// `json` with every character a terminal acts on, or that reorders the text it shows,
  /// written as a `\uXXXX` escape: C0 controls other than tab and the line ends (JSON writers
  /// escape those inside strings already), DEL, the C1 controls (U+009B is an 8-bit CSI, which
  /// JSON allows raw in a string), the bidi marks, embeddings, overrides and isolates, and the
  /// line and paragraph separators. Those can only stand inside a string, so a parser reads
  /// the same document; only a terminal sees a difference: nothing in it moves the cursor,
  /// recolours or reverses what follows.
  static func safe(_ json: String) -> String {
    // Most documents hold none of them: one pass over the bytes, and the text as it was.
    guard json.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 >= 0xD8 })
    else { return json }
    guard json.unicodeScalars.contains(where: isEscaped) else { return json }
    var out = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      guard isEscaped(scalar) else {
        out.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16)
      let escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      out.append(contentsOf: escape.unicodeScalars)
    }
    return String(out)
  }

  /// Whether ``safe(_:)`` escapes `scalar`.
  private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0D: false
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
