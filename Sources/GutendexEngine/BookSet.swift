/// A set of book positions in one catalogue, as a query builds it from posting lists: every
/// book, a few positions (ascending), or a bitmap once they are many; intersected filter by
/// filter, so that a query costs what its lists hold, not what the catalogue holds.
struct BookSet {
  enum Storage {
    /// Every book of the catalogue.
    case all
    /// Positions, ascending, each once.
    case sorted([Int32])
    /// A bit per book.
    case bits([UInt64])
  }

  let bookCount: Int
  private(set) var storage: Storage
  /// How many books the set holds.
  private(set) var count: Int

  /// Every book.
  static func all(_ bookCount: Int) -> BookSet {
    BookSet(bookCount: bookCount, storage: .all, count: bookCount)
  }

  /// No book.
  static func empty(_ bookCount: Int) -> BookSet {
    BookSet(bookCount: bookCount, storage: .sorted([]), count: 0)
  }

  /// The positions given (any order, repeats allowed; those past the catalogue left out).
  static func positions(_ positions: some Sequence<Int32>, bookCount: Int) -> BookSet {
    var sorted = positions.filter { $0 >= 0 && Int($0) < bookCount }
    sorted.sort()
    var unique: [Int32] = []
    unique.reserveCapacity(sorted.count)
    for position in sorted where unique.last != position { unique.append(position) }
    return BookSet(bookCount: bookCount, storage: .sorted(unique), count: unique.count)
  }

  /// The books of a bitmap.
  static func bits(_ words: [UInt64], bookCount: Int) -> BookSet {
    BookSet(
      bookCount: bookCount, storage: .bits(words),
      count: words.reduce(0) { $0 + $1.nonzeroBitCount })
  }

  /// The books whose flag is set (a flag per book, as a scan of the titles gives).
  static func flags(_ flags: [Bool], bookCount: Int) -> BookSet {
    var words = [UInt64](repeating: 0, count: (bookCount + 63) / 64)
    for (position, flag) in flags.prefix(bookCount).enumerated() where flag {
      words[position >> 6] |= 1 << UInt64(position & 63)
    }
    return bits(words, bookCount: bookCount)
  }

  /// The books of any of `lists`: kept as positions when they are few, else as a bitmap.
  static func union(_ lists: [PostingList], bookCount: Int) -> BookSet {
    let size = lists.reduce(0) { $0 + $1.size }
    if size <= bookCount / 32, !lists.contains(where: \.isBitmap) {
      var positions: [Int32] = []
      positions.reserveCapacity(size)
      for list in lists { list.forEachPosition { positions.append(Int32($0)) } }
      // One list is ascending and distinct already (unless damaged).
      if lists.count == 1, zip(positions, positions.dropFirst()).allSatisfy({ $0 < $1 }) {
        return BookSet(bookCount: bookCount, storage: .sorted(positions), count: positions.count)
      }
      return Self.positions(positions, bookCount: bookCount)
    }
    var words = [UInt64](repeating: 0, count: (bookCount + 63) / 64)
    for list in lists { list.addTo(&words) }
    return bits(words, bookCount: bookCount)
  }

  /// The books in either set.
  func union(_ other: BookSet) -> BookSet {
    if case .all = storage { return self }
    if case .all = other.storage { return other }
    var words = [UInt64](repeating: 0, count: (bookCount + 63) / 64)
    for set in [self, other] {
      set.forEachAscending { words[$0 >> 6] |= 1 << UInt64($0 & 63) }
    }
    return .bits(words, bookCount: bookCount)
  }

  /// Whether the set holds `position`.
  func contains(_ position: Int) -> Bool {
    guard position >= 0, position < bookCount else { return false }
    switch storage {
    case .all: return true
    case .bits(let words): return words[position >> 6] & (1 << UInt64(position & 63)) != 0
    case .sorted(let positions):
      var low = 0
      var high = positions.count
      while low < high {
        let middle = (low + high) / 2
        if Int(positions[middle]) < position { low = middle + 1 } else { high = middle }
      }
      return low < positions.count && Int(positions[low]) == position
    }
  }

  /// The books in both sets.
  func intersection(_ other: BookSet) -> BookSet {
    switch (storage, other.storage) {
    case (.all, _): return other
    case (_, .all): return self
    case (.bits(let left), .bits(let right)):
      return .bits(zip(left, right).map { $0 & $1 }, bookCount: bookCount)
    case (.sorted(let positions), _):
      let kept = positions.filter { other.contains(Int($0)) }
      return BookSet(bookCount: bookCount, storage: .sorted(kept), count: kept.count)
    case (_, .sorted):
      return other.intersection(self)
    }
  }

  /// The books of the set that pass `test`.
  func filter(_ test: (Int) -> Bool) -> BookSet {
    switch storage {
    case .sorted(let positions):
      let kept = positions.filter { test(Int($0)) }
      return BookSet(bookCount: bookCount, storage: .sorted(kept), count: kept.count)
    case .all, .bits:
      var words = [UInt64](repeating: 0, count: (bookCount + 63) / 64)
      forEachAscending { position in
        if test(position) { words[position >> 6] |= 1 << UInt64(position & 63) }
      }
      return .bits(words, bookCount: bookCount)
    }
  }

  /// Calls `body` with each position, ascending.
  func forEachAscending(_ body: (Int) -> Void) {
    switch storage {
    case .all: for position in 0..<bookCount { body(position) }
    case .sorted(let positions): for position in positions { body(Int(position)) }
    case .bits(let words):
      for (index, word) in words.enumerated() where word != 0 {
        var bits = word
        while bits != 0 {
          body(index * 64 + bits.trailingZeroBitCount)
          bits &= bits - 1
        }
      }
    }
  }

  /// The positions, ascending.
  var ascending: [Int32] {
    if case .sorted(let positions) = storage { return positions }
    var out: [Int32] = []
    out.reserveCapacity(count)
    forEachAscending { out.append(Int32($0)) }
    return out
  }
}
