/// The "did you mean" vocabulary as an index file stores it (``IndexSection/wordOffsets`` to
/// ``IndexSection/accentWords``), built once with the index so that no query has to read every
/// title, name and topic to find the catalogue's words.
///
/// Words are sorted by byte length, then bytes, so a word is found by binary search and the
/// words of one length lie together (the edit distance only compares neighbouring lengths).
/// Words with accents are listed again under their unaccented form, sorted by that form.
struct VocabularySections {
  /// In ``IndexSection`` order: word offsets, words, counts, accent key offsets, accent keys,
  /// accent words.
  private(set) var sections: [[UInt8]] = []
  /// ``IndexSection/lexicon``: UInt32 per word, the words' numbers in byte order.
  private(set) var lexicon: [UInt8] = []

  /// Reads every text `forEachText` gives, twice: once to count words by hash (no word is
  /// copied), once to keep the words common enough.
  init(forEachText: ((UnsafeRawBufferPointer) -> Void) -> Void) {
    var counts: [Int: Int32] = [:]
    Self.forEachDistinctWord(forEachText) { word in counts[Self.hash(word), default: 0] += 1 }
    var kept: [[UInt8]: Int] = [:]
    Self.forEachDistinctWord(forEachText) { word in
      let count = Int(counts[Self.hash(word)] ?? 0)
      guard count >= Vocabulary.minimumFrequency else { return }
      let bytes = Array(word)
      if kept[bytes] == nil { kept[bytes] = count }
    }
    let words = kept.keys.sorted(by: Vocabulary.precedes)
    var table = ByteTable()
    var frequencies: [Int] = []
    var accented: [(key: [UInt8], word: Int)] = []
    var unaccentedScalars: [Unicode.Scalar: String] = [:]
    for (number, bytes) in words.enumerated() {
      table.append(bytes)
      frequencies.append(kept[bytes] ?? 0)
      guard bytes.contains(where: { $0 >= 0x80 }) else { continue }
      // Scalar by scalar, as `Vocabulary.unaccented` folds a typed word (a cache keeps the
      // catalogue's few thousand accented letters from being folded a million times).
      let key = String(decoding: bytes, as: UTF8.self).unicodeScalars.map { scalar in
        if let known = unaccentedScalars[scalar] { return known }
        let plain = Vocabulary.unaccented(String(scalar))
        unaccentedScalars[scalar] = plain
        return plain
      }.joined()
      accented.append((Array(key.utf8), number))
    }
    accented.sort {
      $0.key.lexicographicallyPrecedes($1.key) || ($0.key == $1.key && $0.word < $1.word)
    }
    var keys = ByteTable()
    for entry in accented { keys.append(entry.key) }
    sections = [
      Self.uint32s(table.offsets), table.bytes, Self.uint32s(frequencies),
      Self.uint32s(keys.offsets), keys.bytes, Self.uint32s(accented.map(\.word)),
    ]
    lexicon = Self.uint32s(
      words.indices.sorted { words[$0].lexicographicallyPrecedes(words[$1]) })
  }

  /// Little-endian 32-bit numbers (the vocabulary's counts and offsets are far below 2³²).
  static func uint32s(_ values: [Int]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(values.count * 4)
    for value in values {
      withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) {
        out.append(contentsOf: $0)
      }
    }
    return out
  }

  /// Calls `body` with each word of each text, once per text.
  private static func forEachDistinctWord(
    _ forEachText: ((UnsafeRawBufferPointer) -> Void) -> Void,
    _ body: (Slice<UnsafeRawBufferPointer>) -> Void
  ) {
    var words: [Range<Int>] = []
    // `forEachText` calls back synchronously, so `body` is done with before this returns.
    withoutActuallyEscaping(body) { body in
      forEachText { text in
        words.removeAll(keepingCapacity: true)
        // A word counts once per text. Titles rarely repeat one, so a short scan is enough;
        // past a few dozen words (a hostile title of megabytes) the words seen go by hash, so
        // the pass stays linear in the text's size.
        var byHash: [Int: [Range<Int>]] = [:]
        var hashing = false
        Vocabulary.forEachWord(in: text) { range in
          let word = text[range]
          if hashing {
            let key = hash(word)
            guard !(byHash[key]?.contains(where: { text[$0].elementsEqual(word) }) ?? false)
            else { return }
            byHash[key, default: []].append(range)
          } else {
            guard !words.contains(where: { text[$0].elementsEqual(word) }) else { return }
            words.append(range)
            if words.count == Self.scannedWords {
              hashing = true
              byHash = Dictionary(grouping: words) { hash(text[$0]) }
            }
          }
          body(word)
        }
      }
    }
  }

  /// How many distinct words of one text are compared one by one before they go by hash.
  private static let scannedWords = 32

  /// A hash of a word's bytes, for counting without copying it.
  private static func hash(_ word: Slice<UnsafeRawBufferPointer>) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: word))
    return hasher.finalize()
  }
}
