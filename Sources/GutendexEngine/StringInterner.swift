/// Distinct strings with ids in the order first given, kept compactly for an index writer:
/// their bytes back to back (``ByteTable``) and an open-addressing table of ids, a few bytes per
/// string beyond its own bytes (a dictionary keyed by arrays cost some eighty).
///
/// Two equalities: `.bytes` (the records' string table, which must keep the server's bytes) and
/// `.canonical` (the pools queries match against, as ``StringPool`` keys them: Swift's `String`
/// equality, so two spellings of one text share an entry, the first kept). What is held grows
/// with the distinct strings (names, subjects, URL templates), never with the number of books.
struct StringInterner: Sendable {
  /// How two strings count as one.
  enum Equality: Sendable {
    case bytes
    case canonical
  }

  let equality: Equality
  /// Every distinct string's bytes, as first given.
  private(set) var table = ByteTable()
  /// Upper-folded (``UpperFold``) forms, one per string, when ``keepsFolded``.
  private(set) var folded = ByteTable()
  let keepsFolded: Bool
  /// Each string's hash, for growing the table without hashing again.
  private var hashes: [Int] = []
  /// String ids by hash, -1 where free; the size is a power of two, at most half full.
  private var slots = [Int32](repeating: -1, count: 64)

  init(_ equality: Equality, keepingFolded: Bool = false) {
    self.equality = equality
    keepsFolded = keepingFolded
  }

  var count: Int { table.count }

  /// The id of the string with `bytes` (`.bytes` equality), adding it if new.
  mutating func id(_ bytes: [UInt8]) -> Int {
    var hasher = Hasher()
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    let hash = hasher.finalize()
    let place = find(hash: hash) { table.entry($0).elementsEqual(bytes) }
    if let found = place.found { return found }
    table.append(bytes)
    return insert(hash: hash, at: place.slot)
  }

  /// The id of `string` (`.canonical` equality), adding it if new.
  mutating func id(_ string: String) -> Int32 {
    let hash = string.hashValue
    let utf8 = string.utf8
    let place = find(hash: hash) { number in
      let stored = table.entry(number)
      return stored.elementsEqual(utf8) || String(decoding: stored, as: UTF8.self) == string
    }
    if let found = place.found { return Int32(found) }
    table.append(utf8)
    if keepsFolded { folded.append(UpperFold.bytes(string)) }
    return Int32(insert(hash: hash, at: place.slot))
  }

  /// The string with `hash` that `isEqual` accepts, else the free slot it would take.
  private func find(hash: Int, isEqual: (Int) -> Bool) -> (found: Int?, slot: Int) {
    let mask = slots.count - 1
    var slot = hash & mask
    while slots[slot] >= 0 {
      let number = Int(slots[slot])
      if hashes[number] == hash, isEqual(number) { return (number, slot) }
      slot = (slot + 1) & mask
    }
    return (nil, slot)
  }

  /// Records the string just appended to ``table`` in `slot`; returns its id.
  private mutating func insert(hash: Int, at slot: Int) -> Int {
    let number = hashes.count
    hashes.append(hash)
    slots[slot] = Int32(number)
    if 2 * hashes.count > slots.count { grow() }
    return number
  }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for (number, hash) in hashes.enumerated() {
      var slot = hash & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(number)
    }
  }
}
