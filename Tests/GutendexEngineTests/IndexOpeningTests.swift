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
