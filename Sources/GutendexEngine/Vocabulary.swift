import Foundation

/// The words of a catalogue's titles, author names, subjects and bookshelves, upper-folded as
/// the matcher sees them, each with how many of those texts hold it: what "did you mean" picks
/// from.
///
/// It reads ``VocabularySections`` in place: from the index file, where the index writer put
/// them (opening costs nothing), or from a copy built from the books (a catalogue in memory, or
/// an index written before the vocabulary was).
///
/// Vocabularies add up (``adding(_:)``): the base index's and the delta's answer as one.
///
/// `@unchecked Sendable` is safe: the buffers are `let`s pointing into `region`'s read-only
/// bytes, `region` (which owns them) lives as long as this value, and `others` is a value.
struct Vocabulary: @unchecked Sendable {
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

  private let region: ByteRegion
  private let wordOffsets: UnsafeRawBufferPointer
  private let words: UnsafeRawBufferPointer
  private let frequencies: UnsafeRawBufferPointer
  private let keyOffsets: UnsafeRawBufferPointer
  private let keys: UnsafeRawBufferPointer
  private let keyWords: UnsafeRawBufferPointer
  /// The words' numbers in byte order (version 4), nil for a vocabulary without it (built from
  /// the books, or read from an older index), whose near words are found by a scan.
  private let lexicon: UnsafeRawBufferPointer?
  /// How many words there are.
  let count: Int
  private let keyCount: Int
  /// Vocabularies added to this one (a delta's).
  private var others: [Vocabulary] = []

  /// The vocabulary whose sections lie at `ranges` (in ``VocabularySections`` order) of
  /// `region`, with its lexicon at `lexicon`. A damaged section gives wrong words, never a read
  /// outside it.
  init(region: ByteRegion, ranges: [Range<Int>], lexicon: Range<Int>? = nil) {
    self.region = region
    func part(_ range: Range<Int>) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(
        rebasing: region.buffer[
          min(range.lowerBound, region.count)..<min(range.upperBound, region.count)])
    }
    let parts = ranges.map(part)
    self.lexicon = lexicon.map(part)
    wordOffsets = parts[0]
    words = parts[1]
    frequencies = parts[2]
    keyOffsets = parts[3]
    keys = parts[4]
    keyWords = parts[5]
    count = max(0, min(wordOffsets.count / 4 - 1, frequencies.count / 4))
    keyCount = max(0, min(keyOffsets.count / 4 - 1, keyWords.count / 4))
  }

  /// The vocabulary of `columns`, built now (reads every title, name and topic).
  init(_ columns: some BookColumns) {
    self.init(VocabularySections(forEachText: columns.forEachMatchedText))
  }

  init(_ built: VocabularySections) {
    var bytes: [UInt8] = []
    var ranges: [Range<Int>] = []
    for section in built.sections {
      ranges.append(bytes.count..<(bytes.count + section.count))
      bytes += section
    }
    self.init(region: ByteRegion(copying: Data(bytes)), ranges: ranges)
  }

  /// Whether `left` comes before `right` in the vocabulary's order: shorter first, then by bytes.
  static func precedes(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Bool {
    left.count != right.count ? left.count < right.count : left.lexicographicallyPrecedes(right)
  }

  private static func uint32(_ buffer: UnsafeRawBufferPointer, _ index: Int) -> Int {
    Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
  }

  private static func entry(
    _ index: Int, offsets: UnsafeRawBufferPointer, bytes: UnsafeRawBufferPointer
  ) -> UnsafeRawBufferPointer {
    let start = min(uint32(offsets, index), bytes.count)
    let end = min(max(start, uint32(offsets, index + 1)), bytes.count)
    return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
  }

  func word(_ index: Int) -> UnsafeRawBufferPointer {
    Self.entry(index, offsets: wordOffsets, bytes: words)
  }

  private func frequency(at index: Int) -> Int { Self.uint32(frequencies, index) }

  /// The first index in `0..<count` for which `isBefore` is false (entries are in order).
  private static func firstIndex(_ count: Int, where isBefore: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if isBefore(middle) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// This vocabulary with `other`'s words counted too.
  func adding(_ other: Vocabulary) -> Vocabulary {
    var sum = self
    sum.others.append(other)
    return sum
  }

  /// How many texts hold `word` (upper-folded bytes) as a whole word.
  func frequency(_ word: [UInt8]) -> Int {
    others.reduce(ownFrequency(word)) { $0 + $1.frequency(word) }
  }

  /// Words spelled like `word` but for accents (`MISERABLES` → `MISÉRABLES`), most frequent
  /// first.
  func accentVariants(of word: [UInt8]) -> [Word] {
    guard !others.isEmpty else { return ownAccentVariants(of: word) }
    let all = ([self] + others).flatMap { $0.ownAccentVariants(of: word) }
    var seen = Set<[UInt8]>()
    return all.filter { seen.insert($0.bytes).inserted }
      .map { Word(bytes: $0.bytes, frequency: frequency($0.bytes)) }
      .sorted { $0.frequency > $1.frequency }
  }

  /// Words within ``EditDistance/tolerance(forLength:)`` edits of `word`, nearest first, then
  /// the most frequent.
  func neighbours(of word: [UInt8]) -> [(word: Word, distance: Int)] {
    guard !others.isEmpty else { return ownNeighbours(of: word) }
    let all = ([self] + others).flatMap { $0.ownNeighbours(of: word) }
    var seen = Set<[UInt8]>()
    return all.filter { seen.insert($0.word.bytes).inserted }
      .map { (Word(bytes: $0.word.bytes, frequency: frequency($0.word.bytes)), $0.distance) }
      .sorted { ($0.distance, -$0.word.frequency) < ($1.distance, -$1.word.frequency) }
  }

  private func ownFrequency(_ word: [UInt8]) -> Int {
    let index = Self.firstIndex(count) { Self.precedes(self.word($0), word) }
    guard index < count, self.word(index).elementsEqual(word) else { return 0 }
    return frequency(at: index)
  }

  private func ownAccentVariants(of word: [UInt8]) -> [Word] {
    let key = Array(Self.unaccented(String(decoding: word, as: UTF8.self)).utf8)
    func keyAt(_ index: Int) -> UnsafeRawBufferPointer {
      Self.entry(index, offsets: keyOffsets, bytes: keys)
    }
    var index = Self.firstIndex(keyCount) { keyAt($0).lexicographicallyPrecedes(key) }
    var found: [Word] = []
    while index < keyCount, keyAt(index).elementsEqual(key) {
      let number = Self.uint32(keyWords, index)
      index += 1
      guard number < count else { continue }
      let bytes = Array(self.word(number))
      if bytes != word { found.append(Word(bytes: bytes, frequency: frequency(at: number))) }
    }
    return found.sorted { $0.frequency > $1.frequency }
  }

  private func ownNeighbours(of word: [UInt8]) -> [(word: Word, distance: Int)] {
    let letters = String(decoding: word, as: UTF8.self).unicodeScalars.count
    let limit = EditDistance.tolerance(forLength: letters)
    if let lexicon, lexicon.count / 4 == count {
      return LexiconWalk(vocabulary: self, lexicon: lexicon).neighbours(of: word, limit: limit)
        .map { (Word(bytes: $0.bytes, frequency: frequency(at: $0.number)), $0.distance) }
        .sorted { ($0.distance, -$0.word.frequency) < ($1.distance, -$1.word.frequency) }
    }
    var found: [(word: Word, distance: Int)] = []
    var rows = EditDistance.Rows(length: word.count)
    // Only words whose length is within the limit can be near: they lie together.
    let first = Self.firstIndex(count) { self.word($0).count < word.count - limit }
    let end = Self.firstIndex(count) { self.word($0).count <= word.count + limit }
    var candidate: [UInt8] = []
    for index in first..<end {
      candidate.removeAll(keepingCapacity: true)
      candidate.append(contentsOf: self.word(index))
      guard candidate != word, let distance = rows.distance(word, candidate, limit: limit) else {
        continue
      }
      found.append((Word(bytes: candidate, frequency: frequency(at: index)), distance))
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
