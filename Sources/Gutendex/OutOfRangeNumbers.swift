import Foundation

/// Numbers a server wrote that no 64-bit integer holds (`"birth_year": 99999999999999999999`,
/// `"download_count": 1e400`), pinned to the nearest one, so that one hostile value makes one
/// book's field out of range (which the index then refuses, naming the book and the field)
/// instead of making the whole document unreadable: Foundation's `JSONDecoder` rejects such a
/// document as "not valid JSON", with no path.
enum OutOfRangeNumbers {
  /// `data` with every number outside `Int`'s range written as `Int.max` or `Int.min` (by its
  /// sign), or nil when it has none. Strings are copied untouched; one pass, linear in size.
  static func clamped(_ data: Data) -> Data? {
    let bytes = [UInt8](data)
    var output: [UInt8] = []
    var copiedUpTo = 0
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        // Skip the string, escapes included.
        index += 1
        while index < count, bytes[index] != UInt8(ascii: "\"") {
          index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
        continue
      }
      guard byte == UInt8(ascii: "-") || (byte &- 0x30) < 10 else {
        index += 1
        continue
      }
      let start = index
      index += 1
      while index < count, Self.isNumberByte(bytes[index]) { index += 1 }
      let token = bytes[start..<index]
      guard let replacement = Self.replacement(for: token) else { continue }
      if output.isEmpty { output.reserveCapacity(count) }
      output += bytes[copiedUpTo..<start]
      output += replacement.utf8
      copiedUpTo = index
    }
    guard copiedUpTo > 0 else { return nil }
    output += bytes[copiedUpTo...]
    return Data(output)
  }

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    (byte &- 0x30) < 10 || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
      || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
  }

  /// The literal to write instead of `token`, nil when `token` fits (or is not a number, which
  /// the decoder then reports itself).
  private static func replacement(for token: ArraySlice<UInt8>) -> String? {
    let negative = token.first == UInt8(ascii: "-")
    let isInteger = !token.dropFirst().contains {
      $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
    }
    let text = String(decoding: token, as: UTF8.self)
    if isInteger {
      guard Int(text) == nil, token.count > 1 || !negative else { return nil }
      // Digits only past the sign: a well-formed integer that 64 bits cannot hold.
      guard token.dropFirst(negative ? 1 : 0).allSatisfy({ ($0 &- 0x30) < 10 }) else {
        return nil
      }
    } else {
      guard let value = Double(text) else { return nil }
      guard !value.isFinite || value.magnitude >= 0x1p63 else { return nil }
    }
    return negative ? String(Int.min) : String(Int.max)
  }
}
