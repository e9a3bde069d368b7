/// Distinct strings, each with a small id and its lower-cased UTF-8 bytes for matching.
///
/// Matching a query against each distinct author name or subject once, then looking the
/// ids up per book, is what keeps `search` and `topic` fast over 76,000 books.
struct StringPool: Sendable {
  private(set) var strings: [String] = []
  private var ids: [String: Int32] = [:]
  /// Lower-cased UTF-8 of every string, back to back; string `i` is `offsets[i]..<offsets[i+1]`.
  private(set) var folded = ByteTable()

  /// The id of `string`, adding it if new.
  mutating func intern(_ string: String) -> Int32 {
    if let id = ids[string] { return id }
    let id = Int32(strings.count)
    strings.append(string)
    ids[string] = id
    folded.append(ByteTable.fold(string))
    return id
  }

  func id(of string: String) -> Int32? { ids[string] }

  var count: Int { strings.count }

  /// A flag per string: does its lower-cased form contain `needle`?
  func containing(_ needle: [UInt8]) -> [Bool] {
    (0..<count).map { folded.contains(needle, at: $0) }
  }
}

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

  /// True when entry `index` contains `needle` (the empty needle is in everything).
  func contains(_ needle: [UInt8], at index: Int) -> Bool {
    let start = offsets[index]
    let end = offsets[index + 1]
    let length = needle.count
    guard length > 0 else { return true }
    guard end - start >= length else { return false }
    return bytes.withUnsafeBufferPointer { hay in
      needle.withUnsafeBufferPointer { pin in
        let first = pin[0]
        var position = start
        let last = end - length
        while position <= last {
          if hay[position] == first {
            var offset = 1
            while offset < length && hay[position + offset] == pin[offset] { offset += 1 }
            if offset == length { return true }
          }
          position += 1
        }
        return false
      }
    }
  }
}

/// A list of small ids per book, stored flat.
struct IDLists: Sendable {
  private(set) var ids: [Int32] = []
  private(set) var offsets: [Int] = [0]

  mutating func append(_ list: some Sequence<Int32>) {
    ids.append(contentsOf: list)
    offsets.append(ids.count)
  }

  func isEmpty(_ book: Int) -> Bool { offsets[book] == offsets[book + 1] }

  /// True when any id of `book` is flagged.
  func any(_ book: Int, in flags: [Bool]) -> Bool {
    var position = offsets[book]
    let end = offsets[book + 1]
    while position < end {
      if flags[Int(ids[position])] { return true }
      position += 1
    }
    return false
  }
}
