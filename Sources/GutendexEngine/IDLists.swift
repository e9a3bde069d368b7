/// A list of small ids per book, stored flat.
struct IDLists: Sendable {
  private(set) var ids: [Int32] = []
  private(set) var offsets: [Int] = [0]

  mutating func append(_ list: some Sequence<Int32>) {
    ids.append(contentsOf: list)
    offsets.append(ids.count)
  }

  /// The ids of `book`.
  func list(_ book: Int) -> ArraySlice<Int32> { ids[offsets[book]..<offsets[book + 1]] }

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
