import Foundation

/// The words of a catalogue's titles, author names, subjects and bookshelves, upper-folded as
/// the matcher sees them, each with how many of those texts hold it: what "did you mean" picks
/// from.
struct Vocabulary: Sendable {
  /// A distinct word.
  struct Word: Sendable {
    /// Its upper-folded UTF-8, as ``BookFilter`` matches it (and as the edit distance compares
    /// it: byte for byte, so an accented letter counts as one or two).
    let bytes: [UInt8]
    /// How many titles, names and topics hold it.
    let frequency: Int
  }

  /// Words held by fewer texts are left out: a suggestion must be more common than what was
  /// typed, and leaving out the many words used once keeps the vocabulary small.
  static let minimumFrequency = 2

  /// Every word, grouped by its length in bytes (the edit distance is at least the difference
  /// in length, so only neighbouring groups are compared).
  private(set) var byLength: [Int: [Word]] = [:]
  /// Words with accents, under their unaccented form.
  private(set) var byUnaccented: [String: [Word]] = [:]
  /// How often each word occurs.
  private(set) var frequencies: [[UInt8]: Int] = [:]

  /// Reads every text `columns` matches on, twice: once to count words by hash (no word is
  /// copied), once to keep the words common enough.
  init(_ columns: some BookColumns) {
    var counts: [Int: Int32] = [:]
    Self.forEachDistinctWord(in: columns) { word in counts[Self.hash(word), default: 0] += 1 }
    var kept: [[UInt8]: Int] = [:]
    Self.forEachDistinctWord(in: columns) { word in
      let count = Int(counts[Self.hash(word)] ?? 0)
      guard count >= Self.minimumFrequency else { return }
      let bytes = Array(word)
      if kept[bytes] == nil { kept[bytes] = count }
    }
    frequencies = kept
    var unaccentedScalars: [Unicode.Scalar: String] = [:]
    for (bytes, frequency) in kept {
      let word = Word(bytes: bytes, frequency: frequency)
      byLength[bytes.count, default: []].append(word)
      if bytes.contains(where: { $0 >= 0x80 }) {
        let key = String(decoding: bytes, as: UTF8.self).unicodeScalars.map { scalar in
          if let known = unaccentedScalars[scalar] { return known }
          let plain = Self.unaccented(String(scalar))
          unaccentedScalars[scalar] = plain
          return plain
        }.joined()
        byUnaccented[key, default: []].append(word)
      }
    }
  }

  /// Calls `body` with each word of each text, once per text.
  private static func forEachDistinctWord(
    in columns: some BookColumns, _ body: (Slice<UnsafeRawBufferPointer>) -> Void
  ) {
    var words: [Range<Int>] = []
    columns.forEachMatchedText { text in
      words.removeAll(keepingCapacity: true)
      forEachWord(in: text) { range in
        // A word counts once per text (titles rarely repeat one, so a short scan is enough).
        let word = text[range]
        if !words.contains(where: { text[$0].elementsEqual(word) }) {
          words.append(range)
          body(word)
        }
      }
    }
  }

  /// A hash of a word's bytes, for counting without copying it.
  private static func hash(_ word: Slice<UnsafeRawBufferPointer>) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: word))
    return hasher.finalize()
  }

  /// How many texts hold `word` (upper-folded bytes) as a whole word.
  func frequency(_ word: [UInt8]) -> Int { frequencies[word] ?? 0 }

  /// Words spelled like `word` but for accents (`MISERABLES` → `MISÉRABLES`), most frequent
  /// first.
  func accentVariants(of word: [UInt8]) -> [Word] {
    (byUnaccented[Self.unaccented(String(decoding: word, as: UTF8.self))] ?? []).filter {
      $0.bytes != word
    }
    .sorted { $0.frequency > $1.frequency }
  }

  /// Words within ``EditDistance/tolerance(forLength:)`` edits of `word`, nearest first, then
  /// the most frequent.
  func neighbours(of word: [UInt8]) -> [(word: Word, distance: Int)] {
    let letters = String(decoding: word, as: UTF8.self).unicodeScalars.count
    let limit = EditDistance.tolerance(forLength: letters)
    var found: [(word: Word, distance: Int)] = []
    var rows = EditDistance.Rows(length: word.count)
    for length in (word.count - limit)...(word.count + limit) {
      for candidate in byLength[length] ?? [] where candidate.bytes != word {
        if let distance = rows.distance(word, candidate.bytes, limit: limit) {
          found.append((candidate, distance))
        }
      }
    }
    return found.sorted {
      ($0.distance, -$0.word.frequency) < ($1.distance, -$1.word.frequency)
    }
  }

  /// Calls `body` with the byte range of every maximal run of letters and digits in
  /// upper-folded UTF-8 (invalid bytes separate words).
  static func forEachWord(in text: UnsafeRawBufferPointer, _ body: (Range<Int>) -> Void) {
    var start: Int?
    var index = 0
    while index < text.count {
      let lead = text[index]
      var length = 1
      var isWordByte = false
      if lead < 0x80 {
        isWordByte =
          (0x30...0x39).contains(lead) || (0x41...0x5A).contains(lead)
          || (0x61...0x7A).contains(lead)
      } else if lead >= 0xC0 {
        length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var value = UInt32(lead) & (lead < 0xE0 ? 0x1F : lead < 0xF0 ? 0x0F : 0x07)
        if index + length <= text.count {
          for offset in 1..<length { value = value << 6 | UInt32(text[index + offset] & 0x3F) }
          if let scalar = Unicode.Scalar(value) {
            isWordByte = scalar.properties.isAlphabetic || scalar.properties.isDiacritic
          }
        } else {
          length = 1
        }
      }
      if isWordByte {
        if start == nil { start = index }
      } else if let first = start {
        body(first..<index)
        start = nil
      }
      index += length
    }
    if let first = start { body(first..<text.count) }
  }

  /// The text without accents (canonical decomposition, marks dropped).
  static func unaccented(_ text: String) -> String {
    text.folding(options: .diacriticInsensitive, locale: nil)
  }
}
