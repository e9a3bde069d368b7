/// Byte strings stored back to back, with substring search.
struct ByteTable: Sendable {
  private(set) var bytes: [UInt8] = []
  private(set) var offsets: [Int] = [0]

  mutating func append(_ entry: some Sequence<UInt8>) {
    bytes.append(contentsOf: entry)
    offsets.append(bytes.count)
  }

  var count: Int { offsets.count - 1 }

  /// Lower-cases like the server's case-insensitive match, with a fast path for ASCII.
  static func fold(_ string: String) -> [UInt8] {
    if string.utf8.allSatisfy({ $0 < 0x80 }) {
      return string.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
    return Array(string.lowercased().utf8)
  }

  /// A flag per entry: does it contain `needle`? (The empty needle is in everything.)
  func entries(containing needle: [UInt8]) -> [Bool] {
    bytes.withUnsafeBytes { raw in
      ByteSearch.entries(containing: needle, in: raw, count: count) { offsets[$0] }
    }
  }
}
