import Foundation
import TestSupport
import Testing

@testable import GutendexEngine

/// The "did you mean" vocabulary is written into the index with the books, and reads back as
/// the vocabulary built from those books would be.
@Suite("Vocabulary in the index")
struct VocabularyIndexTests {
  /// A few books whose words repeat, so that the vocabulary (words in two texts or more) has
  /// accented and plain words of several lengths.
  static let books = [
    #"{"id":1,"title":"Les Misérables","authors":[{"name":"Hugo, Victor","birth_year":1802,"death_year":1885}],"subjects":["Misérables"],"bookshelves":[],"languages":["fr"],"copyright":false,"media_type":"Text","formats":{},"download_count":10}"#,
    #"{"id":2,"title":"Les Miserables, Volume 2","authors":[{"name":"Hugo, Victor","birth_year":1802,"death_year":1885}],"subjects":["Paris -- Fiction"],"bookshelves":[],"languages":["en"],"copyright":false,"media_type":"Text","formats":{},"download_count":9}"#,
    #"{"id":3,"title":"Paris, Volume 1","authors":[{"name":"Zola, Émile","birth_year":1840,"death_year":1902}],"subjects":["Paris -- Fiction"],"bookshelves":[],"languages":["fr"],"copyright":false,"media_type":"Text","formats":{},"download_count":8}"#,
    #"{"id":4,"title":"Émile","authors":[{"name":"Rousseau","birth_year":null,"death_year":null}],"subjects":["Education"],"bookshelves":[],"languages":["fr"],"copyright":false,"media_type":"Text","formats":{},"download_count":7}"#,
  ].map { Data($0.utf8) }

  /// An engine over books in memory where an index file was expected.
  struct NotMapped: Error {}

  /// The vocabulary of `engine`'s index file, failing when it has none.
  func stored(_ engine: GutendexEngine) throws -> Vocabulary {
    guard case .mapped(let books) = engine.storage else {
      throw NotMapped()
    }
    return try #require(books.storedVocabulary, "the index holds no vocabulary")
  }

  @Test func theIndexWriterStoresTheVocabularyOfItsBooks() throws {
    let memory = try GutendexEngine(books: Self.books)
    let built = memory.vocabulary
    let index = try CatalogueSnapshot.make(records: memory.allRecords())
    let words = try stored(CatalogueSnapshot.engine(from: index))
    #expect(words.count == built.count)
    #expect(words.count > 0)
    for word in ["LES", "PARIS", "VOLUME", "HUGO", "VICTOR", "ÉMILE", "FICTION", "NOPE"] {
      let bytes = Array(word.utf8)
      #expect(words.frequency(bytes) == built.frequency(bytes), "\(word)")
    }
    // One title and one distinct subject ("PARIS -- FICTION" is one topic of two books).
    #expect(words.frequency(Array("PARIS".utf8)) == 2)
    #expect(words.accentVariants(of: Array("EMILE".utf8)).map(\.bytes) == [Array("ÉMILE".utf8)])
    #expect(words.neighbours(of: Array("PARRIS".utf8)).first?.word.bytes == Array("PARIS".utf8))
  }

  @Test func theEmbeddedCatalogueCarriesItsVocabularyAndItMatchesTheBooks() async throws {
    // Builds the whole catalogue's vocabulary: on a thread of its own.
    try await OwnThread.run {
      let engine = try embedded.get()
      let words = try stored(engine)
      guard case .mapped(let books) = engine.storage else { throw NotMapped() }
      let built = Vocabulary(books)
      #expect(words.count == built.count)
      for word in ["MISÉRABLES", "MISERABLES", "SHAKESPEARE", "DICKENS", "SCIENCE", "TOLSTOY"] {
        let bytes = Array(word.utf8)
        #expect(words.frequency(bytes) == built.frequency(bytes), "\(word)")
        #expect(
          words.neighbours(of: bytes).map(\.word.bytes)
            == built.neighbours(of: bytes).map(\.word.bytes),
          "\(word)")
      }
    }
  }

  /// The lexicon's trie walk (version 4) finds the near words a scan of the vocabulary finds,
  /// with the same distances, in the same order, for words typed with one or two slips.
  @Test func theTrieFindsWhatAScanFinds() async throws {
    try await OwnThread.run {
      let all = try embedded.get().allRecords()
      let records = stride(from: 0, to: all.count, by: 11).map { all[$0] }
      let index = try CatalogueSnapshot.engine(from: CatalogueSnapshot.make(records: records))
      let words = try stored(index)
      guard case .mapped(let books) = index.storage else { throw NotMapped() }
      let scanned = Vocabulary(books)
      #expect(words.count == scanned.count)
      var typed: [[UInt8]] = []
      for number in stride(from: 0, to: words.count, by: max(1, words.count / 150)) {
        let word = Array(words.word(number))
        guard word.count >= 3 else { continue }
        let middle = word.count / 2
        var dropped = word
        dropped.remove(at: middle)
        var swapped = word
        swapped.swapAt(middle - 1, middle)
        var replaced = word
        replaced[0] = UInt8(ascii: "X")
        typed += [word, dropped, swapped, replaced, word + Array("E".utf8), dropped + [0x41]]
      }
      #expect(typed.count > 500)
      var found = 0
      for word in typed {
        let fromTrie = words.neighbours(of: word).map {
          ($0.word.bytes, $0.distance, $0.word.frequency)
        }
        let fromScan = scanned.neighbours(of: word).map {
          ($0.word.bytes, $0.distance, $0.word.frequency)
        }
        found += fromTrie.count
        #expect(
          fromTrie.elementsEqual(fromScan) { $0 == $1 }, "\(String(decoding: word, as: UTF8.self))")
      }
      #expect(found > 1000)
    }
  }

  @Test func anIndexWrittenBeforeTheVocabularyStillSuggests() throws {
    let memory = try GutendexEngine(books: Self.books)
    let current = try CatalogueSnapshot.make(records: memory.allRecords())
    let older = try Self.versionTwo(current)
    let engine = try CatalogueSnapshot.engine(from: older)
    guard case .mapped(let books) = engine.storage else { throw NotMapped() }
    #expect(books.storedVocabulary == nil)
    #expect(engine.bookCount == 4)
    #expect(engine.vocabulary.frequency(Array("PARIS".utf8)) == 2)
  }

  /// `index` as a version 2 writer wrote it: the same sections but the vocabulary's and
  /// version 4's, laid out the writer's way (right after a table that has no entries for them,
  /// and the file ending with the records), which opening checks.
  static func versionTwo(_ index: Data) throws -> Data {
    var bytes = Array(index)
    let dropped = IndexSection.vocabulary.count + IndexSection.postings.count
    let kept = IndexSection.allCases.count - dropped
    let removed = IndexSection.entrySize * dropped
    func put32(_ value: UInt32, at offset: Int) {
      withUnsafeBytes(of: value.littleEndian) {
        bytes.replaceSubrange(offset..<offset + 4, with: $0)
      }
    }
    func uint64(_ at: Int) -> Int {
      (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
    put32(IndexSection.versionWithoutVocabulary, at: 8)
    put32(UInt32(kept), at: 12)
    // A table shorter by `removed` bytes (a multiple of 8, so every section stays aligned)
    // moves each section up by as much.
    var end = 0
    for number in 0..<kept {
      let entry = IndexSection.headerSize + IndexSection.entrySize * number
      let offset = uint64(entry)
      end = offset + uint64(entry + 8)
      withUnsafeBytes(of: UInt64(offset - removed).littleEndian) {
        bytes.replaceSubrange(entry..<entry + 8, with: $0)
      }
    }
    let tableEnd = IndexSection.headerSize + IndexSection.entrySize * kept
    return Data(bytes[..<tableEnd] + bytes[(tableEnd + removed)..<end])
  }
}
