/// The near words of a typed word, found by walking the vocabulary as a trie: its words in
/// byte order (``IndexSection/lexicon``) are the trie's leaves in order, so the words below a
/// prefix are a run of them, found by binary search, and the edit-distance table is extended
/// one letter per level and abandoned as soon as its row exceeds the limit. A suggestion reads
/// the few hundred words near the typed one instead of every word of a similar length.
///
/// The distance is ``EditDistance``'s (optimal string alignment, byte by byte), so the words
/// found and their distances are those a scan of the vocabulary finds.
struct LexiconWalk {
  let vocabulary: Vocabulary
  let lexicon: UnsafeRawBufferPointer

  private var count: Int { lexicon.count / 4 }

  /// The number of the word `index`th in byte order.
  private func number(_ index: Int) -> Int {
    Int(UInt32(littleEndian: lexicon.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
  }

  private func word(_ index: Int) -> UnsafeRawBufferPointer {
    let number = number(index)
    guard number < vocabulary.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return vocabulary.word(number)
  }

  /// The words within `limit` edits of `target` (itself left out), with their numbers and
  /// distances, in the vocabulary's own order (by length, then bytes), as a scan lists them.
  func neighbours(of target: [UInt8], limit: Int) -> [(number: Int, bytes: [UInt8], distance: Int)]
  {
    var found: [(number: Int, bytes: [UInt8], distance: Int)] = []
    let length = target.count
    // rows[d]: the distances from the prefix of depth d to each prefix of the target.
    var rows: [[Int]] = [Array(0...length)]
    var path: [UInt8] = []

    func visit(_ low: Int, _ high: Int) {
      let depth = path.count
      var index = low
      // The word equal to the prefix sorts first among those below it.
      while index < high, word(index).count == depth {
        let distance = rows[depth][length]
        if depth > 0, distance <= limit, !path.elementsEqual(target) {
          found.append((number(index), path, distance))
        }
        index += 1
      }
      while index < high {
        let byte = word(index)[depth]
        // The run of words with `byte` next: the first after it with a greater one.
        var lowEnd = index + 1
        var highEnd = high
        while lowEnd < highEnd {
          let middle = (lowEnd + highEnd) / 2
          if word(middle)[depth] <= byte { lowEnd = middle + 1 } else { highEnd = middle }
        }
        if extend(with: byte, depth: depth) {
          path.append(byte)
          visit(index, lowEnd)
          path.removeLast()
        }
        index = lowEnd
      }
    }

    /// Adds the row of the prefix followed by `byte`; false when every entry exceeds the limit.
    func extend(with byte: UInt8, depth: Int) -> Bool {
      if rows.count <= depth + 1 { rows.append([Int](repeating: 0, count: length + 1)) }
      let above = rows[depth]
      var row = rows[depth + 1]
      row[0] = depth + 1
      var minimum = row[0]
      for column in 1...max(1, length) where length > 0 {
        let cost = target[column - 1] == byte ? 0 : 1
        var value = min(above[column] + 1, row[column - 1] + 1, above[column - 1] + cost)
        if depth > 0, column > 1, byte == target[column - 2], path[depth - 1] == target[column - 1]
        {
          value = min(value, rows[depth - 1][column - 2] + 1)
        }
        row[column] = value
        minimum = min(minimum, value)
      }
      rows[depth + 1] = row
      return minimum <= limit
    }

    visit(0, count)
    return found.sorted { $0.number < $1.number }
  }
}
