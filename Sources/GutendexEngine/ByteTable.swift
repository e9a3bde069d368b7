/// Byte strings stored back to back, with substring search.
struct ByteTable: Sendable {
  private(set) var bytes: [UInt8] = []
  private(set) var offsets: [Int] = [0]

  mutating func append(_ entry: some Sequence<UInt8>) {
    bytes.append(contentsOf: entry)
    offsets.append(bytes.count)
  }

  var count: Int { offsets.count - 1 }

  /// The bytes of entry `index`.
  func entry(_ index: Int) -> ArraySlice<UInt8> { bytes[offsets[index]..<offsets[index + 1]] }

  /// Folds case like the server's case-insensitive match (see ``UpperFold``).
  static func fold(_ string: String) -> [UInt8] { UpperFold.bytes(string) }

  /// Calls `body` with each entry's bytes in turn.
  func forEachEntry(_ body: (UnsafeRawBufferPointer) -> Void) {
    bytes.withUnsafeBytes { raw in
      for index in 0..<count {
        body(UnsafeRawBufferPointer(rebasing: raw[offsets[index]..<offsets[index + 1]]))
      }
    }
  }

  /// A flag per entry: does it contain `needle`? (The empty needle is in everything.)
  func entries(containing needle: [UInt8]) -> [Bool] {
    bytes.withUnsafeBytes { raw in
      ByteSearch.entries(containing: needle, in: raw, count: count) { offsets[$0] }
    }
  }
}
