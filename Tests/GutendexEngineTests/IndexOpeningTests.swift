import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// What opening an index checks (issue 35, class 5): a file whose header is valid but whose
/// sections are not where the writer puts them, or whose small sections and columns do not
/// hold what the writer writes, is refused at open, never served.
@Suite("Index opening")
struct IndexOpeningTests {
  static func fixture() throws -> Data {
    try CatalogueSnapshot.make(records: Fixture.engine().allRecords())
  }

  static func entry(_ section: IndexSection) -> Int {
    IndexSection.headerSize + IndexSection.entrySize * section.rawValue
  }

  static func put64(_ value: Int, at offset: Int, in data: inout Data) {
    withUnsafeBytes(of: UInt64(value).littleEndian) {
      data.replaceSubrange(offset..<offset + 8, with: $0)
    }
  }

  static func uint64(_ data: Data, _ at: Int) -> Int {
    (0..<8).reduce(0) { $0 | Int(data[at + $1]) << (8 * $1) }
  }

  @Test func aSoundFileOpens() throws {
    let engine = try CatalogueSnapshot.engine(from: Self.fixture())
    try engine.verify()
  }

  /// Every section's offset moved by 8 (either way), one at a time: each is refused.
  @Test func aSectionMovedIsRefused() throws {
    let sound = try Self.fixture()
    for section in IndexSection.allCases {
      for shift in [8, -8] {
        var moved = sound
        let at = Self.entry(section)
        Self.put64(Self.uint64(sound, at) + shift, at: at, in: &moved)
        #expect(throws: EngineError.self, "\(section) moved by \(shift)") {
          try CatalogueSnapshot.engine(from: moved)
        }
      }
    }
  }

  @Test func aLengthChangedOrBytesAddedAreRefused() throws {
    let sound = try Self.fixture()
    var longer = sound
    let at = Self.entry(.records) + 8
    Self.put64(Self.uint64(sound, at) + 1, at: at, in: &longer)
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: longer) }
    #expect(throws: EngineError.self) {
      try CatalogueSnapshot.engine(from: sound + Data(repeating: 0, count: 8))
    }
  }

  /// Negative or unordered ids, even with checksums that match (a hostile writer), are not
  /// served: they listed negative ids.
  @Test func idsThatAreNotAscendingAreRefused() throws {
    var snapshot = try Self.fixture()
    let ids = Self.uint64(snapshot, Self.entry(.ids))
    withUnsafeBytes(of: Int32(-7).littleEndian) {
      snapshot.replaceSubrange(ids..<ids + 4, with: $0)
    }
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: snapshot) }
    try MappedCatalogueTests.resum(.ids, in: &snapshot)
    let error = #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: snapshot) }
    #expect("\(String(describing: error))".contains("ascending"))
  }

  @Test func aSmallSectionThatFailsItsChecksumIsRefused() throws {
    var snapshot = try Self.fixture()
    let languages = Self.uint64(snapshot, Self.entry(.languages))
    snapshot[languages] ^= 0x20
    let error = #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: snapshot) }
    #expect("\(String(describing: error))".contains("languages fails its checksum"))
  }

  /// An offsets table that no longer covers its bytes, checksum matching, is refused.
  @Test func aTableThatDoesNotCoverItsBytesIsRefused() throws {
    var snapshot = try Self.fixture()
    let offsets = Self.uint64(snapshot, Self.entry(.stringOffsets))
    let length = Self.uint64(snapshot, Self.entry(.stringOffsets) + 8)
    let last = offsets + length - 4
    withUnsafeBytes(of: UInt32(1).littleEndian) {
      snapshot.replaceSubrange(last..<last + 4, with: $0)
    }
    try MappedCatalogueTests.resum(.stringOffsets, in: &snapshot)
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: snapshot) }
  }

  /// Version 4's tables are checked like the others: offsets that do not cover their bytes, a
  /// posting section of no width, a rank past the books, each refuse the file.
  @Test(arguments: [
    IndexSection.tokenOffsets, .tokenBookOffsets, .nameBookOffsets, .topicBookOffsets,
    .languageBookOffsets, .mimeTypeBookOffsets,
  ])
  func aVersion4TableThatDoesNotCoverItsBytesIsRefused(_ offsets: IndexSection) throws {
    var snapshot = try Self.fixture()
    #expect(throws: Never.self) { try CatalogueSnapshot.engine(from: snapshot) }
    let start = Self.uint64(snapshot, Self.entry(offsets))
    let last = start + Self.uint64(snapshot, Self.entry(offsets) + 8) - 4
    let current = (0..<4).reduce(0) { $0 | Int(snapshot[last + $1]) << (8 * $1) }
    withUnsafeBytes(of: UInt32(current + 1).littleEndian) {
      snapshot.replaceSubrange(last..<last + 4, with: $0)
    }
    try MappedCatalogueTests.resum(offsets, in: &snapshot)
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: snapshot) }
  }

  @Test func aPostingSectionOfNoWidthOrARankPastTheBooksIsRefused() throws {
    var noWidth = try Self.fixture()
    let width = Self.entry(.tokenBooks) + 16
    noWidth.replaceSubrange(width..<width + 4, with: [0, 0, 0, 0])
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: noWidth) }
    var pastTheBooks = try Self.fixture()
    let ranks = Self.uint64(pastTheBooks, Self.entry(.ranks))
    pastTheBooks.replaceSubrange(ranks..<ranks + 4, with: [0xFF, 0xFF, 0, 0])
    try MappedCatalogueTests.resum(.ranks, in: &pastTheBooks)
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: pastTheBooks) }
  }

  /// A posting list damaged inside (positions past the books, out of order, tags that are
  /// neither) is refused by its checksum; one whose checksum was made to match (what opening
  /// cannot tell from sound data in a big section) gives wrong books at worst, never a read
  /// outside the file or a crash.
  @Test func aDamagedPostingListNeverCrashes() throws {
    var snapshot = try Self.fixture()
    let books = try CatalogueSnapshot.engine(from: snapshot).bookCount
    let lists = try MappedCatalogueTests.section(.tokenBooks, in: snapshot)
    for offset in stride(from: lists.lowerBound, to: lists.upperBound, by: 7) {
      snapshot[offset] = 0xFF
    }
    #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: snapshot) }
    try MappedCatalogueTests.resum(.tokenBooks, in: &snapshot)
    let engine = try CatalogueSnapshot.engine(from: snapshot)
    for query in ["search=the", "search=a", "search=frankenstein", "search=x&sort=ascending"] {
      let response = try get(engine, "/books/?\(query)")
      #expect(response.status == 200, "\(query)")
      #expect(try ListBody(response).count <= books, "\(query)")
    }
  }

  /// An index path that is a FIFO (nothing writes to it) is refused at once, never waited on.
  @Test func aFIFOIsRefusedWithoutBlocking() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("index-\(UUID().uuidString).fifo").path
    try #require(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    let error = #expect(throws: EngineError.self) {
      try CatalogueSnapshot.engine(mapping: path)
    }
    #expect("\(String(describing: error))".contains("is a FIFO, not a regular file"))
  }

  /// A big section's damage is not looked for at open (that would cost every cold query the
  /// whole file) but ``GutendexEngine/verify(base:)`` finds it: what `doctor` runs.
  @Test func aBigSectionsDamageIsFoundByVerify() async throws {
    // The whole catalogue read twice: on a thread of its own.
    try await OwnThread.run {
      let engine = try EmbeddedCatalogue.load()
      try engine.verify()
      let path = try #require(EmbeddedCatalogue.resourceURL)
      var bytes = try Data(contentsOf: path)
      let titles = Self.uint64(bytes, Self.entry(.titles))
      bytes[titles + 1000] ^= 0x01
      let damaged = try CatalogueSnapshot.engine(from: bytes)
      #expect(throws: EngineError.self) { try damaged.verify() }
    }
  }
}
