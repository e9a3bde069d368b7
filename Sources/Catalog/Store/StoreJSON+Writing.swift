extension StoreJSON {
  /// Compact UTF-8 JSON: no whitespace, slashes and non-ASCII unescaped.
  ///
  /// - Parameter sortedKeys: sort object members by the UTF-8 bytes of their keys (stable for
  ///   duplicates); otherwise keep document order.
  func compact(sortedKeys: Bool = false) -> [UInt8] {
    var out: [UInt8] = []
    write(to: &out, sortedKeys: sortedKeys, indent: nil)
    return out
  }

  /// Pretty-printed UTF-8 JSON with sorted keys and two-space indentation (`"key": value`).
  func pretty() -> [UInt8] {
    var out: [UInt8] = []
    write(to: &out, sortedKeys: true, indent: 0)
    return out
  }

  /// Appends this value pretty-printed as if nested `level` deep in a document (its inner lines
  /// indented by `level + 1` steps), for a document written a piece at a time.
  func appendPretty(to out: inout [UInt8], level: Int) {
    write(to: &out, sortedKeys: true, indent: level)
  }

  /// Writes `text` as a JSON string literal, escaping only what JSON requires.
  static func writeString(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings need no escape: copy their bytes whole instead of one by one.
    var text = text
    let plain = text.withUTF8 { buffer in
      guard !buffer.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
        return false
      }
      out.append(contentsOf: buffer)
      return true
    }
    if plain { return out.append(UInt8(ascii: "\"")) }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case 0x00..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: Array("\\u00".utf8))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private func write(to out: inout [UInt8], sortedKeys: Bool, indent: Int?) {
    switch self {
    case .null: out.append(contentsOf: Array("null".utf8))
    case .bool(let value): out.append(contentsOf: Array((value ? "true" : "false").utf8))
    case .number(let text): out.append(contentsOf: Array(text.utf8))
    case .string(let text): Self.writeString(text, to: &out)
    case .array(let elements):
      guard !elements.isEmpty else { return out.append(contentsOf: [0x5B, 0x5D]) }
      out.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.newline(&out, indent.map { $0 + 1 })
        element.write(to: &out, sortedKeys: sortedKeys, indent: indent.map { $0 + 1 })
      }
      Self.newline(&out, indent)
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else { return out.append(contentsOf: [0x7B, 0x7D]) }
      let ordered = sortedKeys ? Self.sorted(members) : members
      out.append(UInt8(ascii: "{"))
      for (index, member) in ordered.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        Self.newline(&out, indent.map { $0 + 1 })
        Self.writeString(member.key, to: &out)
        out.append(UInt8(ascii: ":"))
        if indent != nil { out.append(UInt8(ascii: " ")) }
        member.value.write(to: &out, sortedKeys: sortedKeys, indent: indent.map { $0 + 1 })
      }
      Self.newline(&out, indent)
      out.append(UInt8(ascii: "}"))
    }
  }

  private static func newline(_ out: inout [UInt8], _ indent: Int?) {
    guard let indent else { return }
    out.append(0x0A)
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
  }

  /// Members ordered by key bytes; equal keys keep their document order.
  private static func sorted(_ members: [Member]) -> [Member] {
    // Sort positions, not members (moving members costs reference counting). For ASCII keys,
    // String's own comparison is byte order and much faster than comparing UTF-8 views.
    let ascii = members.allSatisfy { $0.key.utf8.allSatisfy { $0 < 0x80 } }
    let order = members.indices.sorted { left, right in
      let (leftKey, rightKey) = (members[left].key, members[right].key)
      if ascii {
        return leftKey == rightKey ? left < right : leftKey < rightKey
      }
      if leftKey.utf8.elementsEqual(rightKey.utf8) { return left < right }
      return leftKey.utf8.lexicographicallyPrecedes(rightKey.utf8)
    }
    return order.map { members[$0] }
  }
}
