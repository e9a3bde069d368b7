import Foundation
import Testing

@testable import Terminal

/// The JSON the commands print holds nothing a terminal acts on, and still means the same.
struct JSONTextTests {
  /// Every character ``JSONText/safe(_:)`` must escape, and some it must leave.
  static let hazards: [Unicode.Scalar] = [
    "\u{01}", "\u{1B}", "\u{7F}", "\u{80}", "\u{9B}", "\u{9D}", "\u{9F}", "\u{061C}", "\u{200E}",
    "\u{200F}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}",
  ]

  @Test func everyHazardIsEscapedAndTheDocumentReadsTheSame() throws {
    for hazard in Self.hazards {
      let title = "Moby\(Character(hazard))Dick · 紅樓夢 · é"
      // Built by hand, as a server may send it: the character raw inside the string.
      let json = "{\"title\": \"\(title)\",\n\t\"id\": 1}"
      let safe = JSONText.safe(json)
      #expect(!safe.unicodeScalars.contains(hazard), "U+\(String(hazard.value, radix: 16))")
      let hex = String(format: "%04x", hazard.value)
      #expect(safe.contains("\\u\(hex)"), "\(safe)")
      if hazard.value >= 0x20 {
        // JSON allows it raw; the escaped document is the same document.
        let object = try #require(
          try JSONSerialization.jsonObject(with: Data(safe.utf8)) as? [String: Any])
        #expect(object["title"] as? String == title)
      }
    }
  }

  @Test func textWithoutHazardsIsUnchanged() {
    for json in [
      "{\"title\":\"Les Misérables\",\n\t\"x\":\"紅樓夢 ‌ ‍ 🇫🇷 عربي\"}\r\n", "[]", "",
    ] {
      #expect(JSONText.safe(json) == json)
    }
  }

  @Test func encodedObjectsAreSafe() throws {
    let title = "a\u{1B}[0m\u{9B}1;31m\u{202E}b\u{7F}"
    let text = JSONText.object(["title": title])
    #expect(!text.unicodeScalars.contains { [0x1B, 0x7F, 0x9B, 0x202E].contains($0.value) })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["title"] as? String == title)
  }
}
