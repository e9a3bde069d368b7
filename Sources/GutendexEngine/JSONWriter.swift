/// Writes JSON the way the server's renderer does: compact, raw UTF-8, Python escaping.
///
/// Django REST framework renders with `json.dumps(ensure_ascii=False, separators=(',', ':'))`
/// and then escapes U+2028 and U+2029, so only `"`, `\`, control characters and those two
/// separators are escaped, with Python's spelling (`\n`, `\u001f` in lower-case hex).
struct JSONWriter {
  var bytes: [UInt8] = []

  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func int(_ value: Int) {
    bytes.append(contentsOf: String(value).utf8)
  }

  mutating func optionalInt(_ value: Int?) {
    if let value { int(value) } else { raw("null") }
  }

  mutating func string(_ text: String) {
    var text = text
    text.withUTF8 { string(utf8: $0, slot: nil) }
  }

  /// Writes a string, putting `slot` (the book id) wherever the template holds an id slot.
  mutating func string(_ text: String, slot: Int?) {
    var text = text
    text.withUTF8 { string(utf8: $0, slot: slot) }
  }

  private static let hex = Array("0123456789abcdef".utf8)

  mutating func string(utf8: UnsafeBufferPointer<UInt8>, slot: Int?) {
    bytes.append(0x22)
    var start = 0
    var index = 0
    let count = utf8.count
    while index < count {
      let byte = utf8[index]
      if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0xE2 {
        index += 1
        continue
      }
      if byte == 0xE2 {
        // U+2028 / U+2029 are E2 80 A8 / E2 80 A9.
        guard index + 2 < count, utf8[index + 1] == 0x80,
          utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9
        else {
          index += 1
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        bytes.append(
          contentsOf: utf8[index + 2] == 0xA8 ? Array(#"\u2028"#.utf8) : Array(#"\u2029"#.utf8))
        index += 3
        start = index
        continue
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
      index += 1
      start = index
      if byte == BookRecord.idSlot, let slot {
        int(slot)
        continue
      }
      switch byte {
      case 0x22: raw(#"\""#)
      case 0x5C: raw(#"\\"#)
      case 0x0A: raw(#"\n"#)
      case 0x0D: raw(#"\r"#)
      case 0x09: raw(#"\t"#)
      case 0x08: raw(#"\b"#)
      case 0x0C: raw(#"\f"#)
      default:
        raw(#"\u00"#)
        bytes.append(Self.hex[Int(byte >> 4)])
        bytes.append(Self.hex[Int(byte & 0x0F)])
      }
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count]))
    bytes.append(0x22)
  }
}
