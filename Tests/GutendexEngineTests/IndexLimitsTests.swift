import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// One set of limits for what comes in and what the index holds (issue 35, class 1 and 3):
/// a number out of range is named and skipped, never a trap or a failed index; a list past
/// the reader's limit is cut, so every book written reads back.
@Suite("Index limits")
struct IndexLimitsTests {
  /// Book 84 of the fixtures, as an object to change.
  static func book84() throws -> [String: Any] {
    let line = try #require(try Fixture.lines().first { try Book.decode(from: $0).id == 84 })
    return try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
  }

  static func json(_ object: [String: Any]) throws -> Data {
    try JSONSerialization.data(withJSONObject: object)
  }

  /// Values past each limit (and the values at it, which fit), for every number a book has.
  static let outOfRange: [(field: String, value: Int)] = [
    ("id", 1 << 31), ("id", -1), ("id", 1 << 62), ("download_count", 1 << 31),
    ("download_count", -5), ("download_count", Int.max), ("authors[0].birth_year", 1 << 62),
    ("authors[0].birth_year", Int(Int32.min)), ("authors[0].death_year", 1 << 31),
    ("authors[0].death_year", -(1 << 62)), ("authors[0].birth_year", Int.min),
  ]

  static func setting(_ field: String, _ value: Int, in book: [String: Any]) -> [String: Any] {
    var book = book
    switch field {
    case "id", "download_count": book[field] = value
    default:
      let key = field.hasSuffix("birth_year") ? "birth_year" : "death_year"
      book["authors"] = [
        ["name": "Someone, A.", "birth_year": 1800, "death_year": 1850]
          .merging([key: value]) { _, new in new }
      ]
    }
    return book
  }

  @Test func anIncomingBookWithANumberOutOfRangeIsSkippedByIDAndField() throws {
    let book = try Self.book84()
    for (field, value) in Self.outOfRange {
      let incoming = IncomingBooks([try Self.json(Self.setting(field, value, in: book))])
      guard case .outOfRange(let problem) = try #require(incoming.records.first) else {
        Issue.record("\(field) = \(value) was not refused: \(incoming.records)")
        continue
      }
      #expect(problem.field == field, "\(field) = \(value)")
      #expect(incoming.skipped.first?.contains(field) == true, "\(incoming.skipped)")
    }
    // The limits themselves fit.
    for (field, value) in [
      ("id", Int(Int32.max)), ("download_count", Int(Int32.max)),
      ("authors[0].birth_year", Int(Int32.min) + 1), ("authors[0].death_year", Int(Int32.max)),
    ] {
      let incoming = IncomingBooks([try Self.json(Self.setting(field, value, in: book))])
      guard case .book = try #require(incoming.records.first) else {
        Issue.record("\(field) = \(value) was refused")
        continue
      }
    }
  }

  /// The delta of a sync with a book out of range: the other books are merged, that one is
  /// left out, and nothing traps (2^62 trapped in the writer's zigzag coding).
  @Test func aDeltaLeavesOutTheBookItCannotStore() throws {
    let engine = try Fixture.engine()
    var fresh = try Self.book84()
    fresh["id"] = 90_100
    var hostile = Self.setting("authors[0].birth_year", 1 << 62, in: fresh)
    hostile["id"] = 90_101
    let merge = try engine.upsert.deltaIndex(upserting: [
      try Self.json(fresh), try Self.json(hostile),
    ])
    #expect(merge.added == [90_100])
    let delta = try CatalogueSnapshot.engine(from: merge.index)
    #expect(delta.bookJSON(id: 90_100) != nil)
    #expect(delta.bookJSON(id: 90_101) == nil)
  }

  /// The zigzag coding of any 64-bit year, and any 64-bit code read back, without a trap.
  @Test func everyYearCodesAndDecodesWithoutATrap() throws {
    for year in [1 << 62, Int.max, Int.min + 1, -(1 << 62), 1 << 31, -1, 0, 2025] {
      var sink = ByteSink()
      sink.optionalSigned(year)
      var source = ByteSource(sink.bytes)
      #expect(try source.optionalSigned() == year)
    }
    // A damaged record's code of 2^63 (ten varint bytes) reads as some number, not a trap.
    var sink = ByteSink()
    sink.varint(Int.min)
    var source = ByteSource(sink.bytes)
    _ = try source.optionalSigned()
    #expect(source.isAtEnd)
  }

  /// 70,000 subjects and 65,536 formats: written cut to 65,535, and the book reads back (it
  /// made every query that reached it fail with "damaged").
  @Test func aListPastTheLimitIsCutAndReadsBack() throws {
    var book = try Self.book84()
    book["subjects"] = (0..<70_000).map { "Subject \($0)" }
    var formats: [String: String] = [:]
    for number in 0..<65_536 { formats["application/x-\(number)"] = "https://e.test/\(number)" }
    book["formats"] = formats
    let incoming = IncomingBooks([try Self.json(book)])
    guard case .book(let record, let cuts) = try #require(incoming.records.first) else {
      Issue.record("the book was not kept: \(incoming.records)")
      return
    }
    #expect(cuts == ["70000 subjects, 65535 kept", "65536 formats, 65535 kept"])
    #expect(incoming.cut.first?.hasPrefix("book 84 (") == true)
    let engine = try CatalogueSnapshot.engine(from: CatalogueSnapshot.make(records: [record]))
    let json = try #require(engine.bookJSON(id: 84))
    let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    #expect((object["subjects"] as? [String])?.count == IndexLimits.listCount)
    #expect((object["formats"] as? [String: String])?.count == IndexLimits.listCount)
    try engine.verify()
  }

  /// Even given such a book directly, the writer stores what the reader reads.
  @Test func theWriterNeverStoresWhatTheReaderRefuses() throws {
    let engine = try Fixture.engine()
    var record = try #require(try engine.allRecords().first)
    record.languages = (0..<(IndexLimits.listCount + 10)).map { "l\($0)" }
    record.translators = Array(
      repeating: PersonRecord(name: "T", birthYear: nil, deathYear: nil),
      count: IndexLimits.listCount + 1)
    let index = try CatalogueSnapshot.make(records: [record])
    let read = try CatalogueSnapshot.engine(from: index)
    try read.verify()
    #expect(read.bookJSON(id: record.id) != nil)
    record.downloadCount = 1 << 40
    #expect(throws: EngineError.self) { try CatalogueSnapshot.make(records: [record]) }
  }

  /// A feed record whose year or download count is out of range (written with too many
  /// digits too) is refused by id and field, not stored.
  @Test(arguments: [
    ("<pgterms:birthdate>4611686018427387904</pgterms:birthdate>", "birth_year"),
    ("<pgterms:birthdate>99999999999999999999999999</pgterms:birthdate>", "birth_year"),
    ("<pgterms:deathdate>-2147483648</pgterms:deathdate>", "death_year"),
    ("<pgterms:downloads>2147483648</pgterms:downloads>", "download_count"),
  ])
  func aFeedRecordWithANumberOutOfRangeIsNamed(element: String, field: String) async throws {
    let xml = FeedRecordTests.record(id: 90_001, extra: element)
    let error = #expect(throws: FeedRecordError.self) {
      try Array(xml.utf8).withUnsafeBytes { try FeedRecordReader.read(id: 90_001, bytes: $0) }
    }
    #expect(error?.id == 90_001)
    #expect(error?.reason.contains(field) == true, "\(String(describing: error))")
  }

  /// A feed record of 2^31 (its folder and file name) is refused by id.
  @Test func aFeedRecordWhoseIDIsOutOfRangeIsNamed() async throws {
    let id = 1 << 31
    let xml = FeedRecordTests.record(id: id, extra: "")
    let error = #expect(throws: FeedRecordError.self) {
      try Array(xml.utf8).withUnsafeBytes { try FeedRecordReader.read(id: id, bytes: $0) }
    }
    #expect(error?.reason.hasPrefix("id 2147483648 is out of range") == true)
  }
}

/// Small hand-made feed records.
enum FeedRecordTests {
  /// A record of book `id` titled "A Title", with `extra` inside its one author's agent (or,
  /// for `pgterms:downloads`, in place of the downloads).
  static func record(id: Int, extra: String, title: String = "A Title") -> String {
    let downloads =
      extra.contains("pgterms:downloads") ? extra : "<pgterms:downloads>12</pgterms:downloads>"
    let agent = extra.contains("pgterms:downloads") ? "" : extra
    return """
      <?xml version="1.0" encoding="utf-8"?>
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        xmlns:dcterms="http://purl.org/dc/terms/"
        xmlns:pgterms="http://www.gutenberg.org/2009/pgterms/">
        <pgterms:ebook rdf:about="ebooks/\(id)">
          <dcterms:title>\(title)</dcterms:title>
          <dcterms:creator>
            <pgterms:agent rdf:about="2009/agents/1">
              <pgterms:name>Someone, A.</pgterms:name>
              \(agent)
            </pgterms:agent>
          </dcterms:creator>
          \(downloads)
        </pgterms:ebook>
      </rdf:RDF>
      """
  }
}
