import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// Issue 36: a version 4 index answers from its posting lists and popular order, merging only
/// what a page needs of the base and the delta. Every answer (count, links, books, order) must
/// be the one a single catalogue of the same books gives (the in-memory engine, which walks
/// every book), and a version 3 file, which has no postings, still answers by walking.
@Suite("Indexed queries")
struct IndexedQueryTests {
  /// The layers: a base of real books, and a delta of new books, books of the base changed
  /// (download counts up and down, titles, languages), and books copied unchanged.
  struct Layers {
    var base: [BookRecord]
    var delta: [BookRecord]

    /// The catalogue the two make together: the delta's copies replace the base's.
    var merged: [BookRecord] {
      let replaced = Set(delta.map(\.id))
      return (base.filter { !replaced.contains($0.id) } + delta).sorted { $0.id < $1.id }
    }
  }

  static func layers() throws -> Layers {
    let all = try embedded.get().allRecords()
    // Every 19th book: thousands, spread over the whole catalogue (popular and not).
    let base = stride(from: 0, to: all.count, by: 19).map { all[$0] }
    var delta: [BookRecord] = []
    for (number, book) in base.enumerated() where number % 23 == 0 {
      var changed = book
      switch number % 4 {
      case 0: changed.downloadCount = changed.downloadCount * 3 + 1000
      case 1: changed.downloadCount = 0
      case 2:
        changed.title += " (revised)"
        changed.languages = ["fr"]
      default: break  // an identical copy
      }
      delta.append(changed)
    }
    let highest = try #require(all.last?.id)
    let fresh = try SyncFixture.newBooks(300, firstID: highest + 1, seed: 9)
    delta += try GutendexEngine(books: fresh).allRecords()
    return Layers(base: base, delta: delta)
  }

  static func write(_ records: [BookRecord], _ name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try CatalogueSnapshot.make(records: records, keepingSummaries: true).write(to: url)
    return url.path
  }

  /// Queries with every filter, alone and together, in each order.
  static let queries: [String] =
    FilterTests.cases.map(\.query) + [
      "", "sort=ascending&languages=fr", "sort=descending&search=the",
      "search=dickens&languages=en", "search=volume", "search=volume&sort=descending",
      "topic=fiction&languages=en&sort=popular", "mime_type=audio&sort=ascending",
      "search=love&copyright=false", "languages=en&author_year_start=1850&sort=descending",
      "search=a&search=history", "search=o'", "search=%C3%A9",
    ]

  static let pages = ["", "&page=2", "&page=3", "&page=9", "&page=40", "&page=last", "&page=5000"]

  static func compare(_ actual: GutendexEngine, _ expected: GutendexEngine) throws {
    for query in queries {
      for page in pages {
        let url = try #require(URL(string: "http://engine.test/books/?\(query)\(page)"))
        let want = expected.respond(to: HTTPRequest(url: url))
        let got = actual.respond(to: HTTPRequest(url: url))
        #expect(got.status == want.status, "\(query)\(page)")
        #expect(got.body == want.body, "\(query)\(page)")
      }
    }
  }

  // Each test reads thousands of books and answers hundreds of queries twice: on a thread of
  // its own, not the pool the parallel suites share.
  @Test func aBaseAndADeltaAnswerLikeOneCatalogueInMemory() async throws {
    try await OwnThread.run { try Self.layeredAnswers() }
  }

  static func layeredAnswers() throws {
    let layers = try Self.layers()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("indexed-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let base = try Self.write(layers.base, "base.gdxindex", in: directory)
    let delta = try Self.write(layers.delta, "delta.gdxindex", in: directory)
    let layered = try CatalogueSnapshot.engine(mapping: base, delta: delta)
    guard case .mapped(let books) = layered.storage else { throw VocabularyIndexTests.NotMapped() }
    #expect(books.postings != nil)
    #expect(layered.shadow.positions.count > 100)
    let memory = try GutendexEngine(records: layers.merged)
    #expect(layered.bookCount == memory.bookCount)
    try Self.compare(layered, memory)
    // The count alone (what "did you mean" asks for each proposal) agrees too.
    for query in Self.queries {
      let parameters = QueryString(query)
      #expect(layered.matchCount(parameters) == memory.matchCount(parameters), "\(query)")
    }
  }

  @Test func aBaseAloneAnswersLikeTheInMemoryEngine() async throws {
    try await OwnThread.run {
      let layers = try Self.layers()
      let mapped = try CatalogueSnapshot.engine(
        from: CatalogueSnapshot.make(records: layers.base, keepingSummaries: true))
      try Self.compare(mapped, try GutendexEngine(records: layers.base))
    }
  }

  @Test func aVersion3IndexHasNoPostingsAndAnswersAlike() async throws {
    try await OwnThread.run { try Self.olderAnswers() }
  }

  /// A delta an older version synced (version 3) over a base of version 4 (the embedded
  /// snapshot once the program is updated), and a version 3 base (a feed refresh of an older
  /// version) under a version 4 delta: each layer is read as it was written, the answers are
  /// the single catalogue's.
  @Test func layersOfEitherVersionAnswerTogether() async throws {
    try await OwnThread.run { try Self.mixedAnswers() }
  }

  static func mixedAnswers() throws {
    let layers = try Self.layers()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("indexed-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let memory = try GutendexEngine(records: layers.merged)
    let current = try CatalogueSnapshot.engine(
      mapping: try Self.write(layers.base, "base.gdxindex", in: directory),
      delta: try Self.write(layers.delta, "delta.gdxindex", in: directory))
    for olderLayer in ["base", "delta"] {
      var paths: [String] = []
      for (name, records) in [("base", layers.base), ("delta", layers.delta)] {
        var bytes = try CatalogueSnapshot.make(records: records, keepingSummaries: true)
        if name == olderLayer { bytes = try Self.versionThree(bytes) }
        let url = directory.appendingPathComponent("\(olderLayer)-\(name).gdxindex")
        try bytes.write(to: url)
        paths.append(url.path)
      }
      let layered = try CatalogueSnapshot.engine(mapping: paths[0], delta: paths[1])
      guard case .mapped(let books) = layered.storage, let delta = layered.delta else {
        throw VocabularyIndexTests.NotMapped()
      }
      #expect((books.postings == nil) == (olderLayer == "base"))
      #expect((delta.postings == nil) == (olderLayer == "delta"))
      #expect(layered.bookCount == memory.bookCount)
      try Self.compare(layered, memory)
      // "Did you mean" proposes what the same layers of version 4 propose ("revised" is a word
      // of the delta alone).
      for typed in ["search=dickins", "search=shakespere", "search=revized"] {
        let proposed = layered.suggestions(forQuery: typed, found: 0)
        #expect(!proposed.isEmpty, "\(olderLayer): \(typed)")
        #expect(proposed == current.suggestions(forQuery: typed, found: 0), "\(olderLayer)")
      }
    }
  }

  static func olderAnswers() throws {
    let layers = try Self.layers()
    let current = try CatalogueSnapshot.make(records: layers.base, keepingSummaries: true)
    let older = try Self.versionThree(current)
    let engine = try CatalogueSnapshot.engine(from: older)
    guard case .mapped(let books) = engine.storage else { throw VocabularyIndexTests.NotMapped() }
    #expect(books.postings == nil)
    #expect(books.storedVocabulary != nil)
    try Self.compare(engine, try CatalogueSnapshot.engine(from: current))
  }

  /// `index` as a version 3 writer wrote it: the same sections but version 4's, the table
  /// shorter by theirs (every section moved up by as much) and the file ending with the
  /// vocabulary, as opening checks.
  static func versionThree(_ index: Data) throws -> Data {
    var bytes = Array(index)
    let kept = IndexSection.allCases.count - IndexSection.postings.count
    let removed = IndexSection.entrySize * IndexSection.postings.count
    func put32(_ value: UInt32, at offset: Int) {
      withUnsafeBytes(of: value.littleEndian) {
        bytes.replaceSubrange(offset..<offset + 4, with: $0)
      }
    }
    func uint64(_ at: Int) -> Int {
      (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
    put32(IndexSection.versionWithoutPostings, at: 8)
    put32(UInt32(kept), at: 12)
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
