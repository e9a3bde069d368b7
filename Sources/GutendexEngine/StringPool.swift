/// Distinct strings, each with a small id and its upper-folded UTF-8 bytes (``UpperFold``) for matching.
///
/// Matching a query against each distinct author name or subject once, then looking the
/// ids up per book, is what keeps `search` and `topic` fast over 76,000 books.
struct StringPool: Sendable {
  private(set) var strings: [String] = []
  private var ids: [String: Int32] = [:]
  /// Upper-folded UTF-8 of every string, back to back; string `i` is `offsets[i]..<offsets[i+1]`.
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
}
