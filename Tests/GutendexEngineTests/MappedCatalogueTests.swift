import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// The embedded catalogue's index, read in place, must answer exactly like the in-memory engine
/// built from the same books (the path every other engine test covers).
@Suite("Mapped catalogue index")
struct MappedCatalogueTests {
  /// At least 40 requests covering every parameter, pages, links, details and errors.
  static let requests: [String] = [
    "/books/", "/books/?page=2", "/books/?page=last", "/books/?page=2397", "/books/?page=2398",
    "/books/?page=0", "/books/?page=%202", "/books/?page=x",
    "/books/?search=dickens", "/books/?search=dickens&page=2", "/books/?search=DICKENS%20great",
    "/books/?search=great%20expectations", "/books/?search=", "/books/?search=%25",
    "/books/?search=the%20of%20and", "/books/?search=%C3%A9mile",
    "/books/?search=%E6%BA%90%E6%B0%8F", "/books/?search=zzzxxyqqq",
    "/books/?topic=science%20fiction&page=5", "/books/?topic=FICTION", "/books/?topic=",
    "/books/?topic=Category:%20Novels", "/books/?topic=browsing:%20poetry",
    "/books/?languages=fr", "/books/?languages=en,fr&page=100", "/books/?languages=EN,De",
    "/books/?languages=", "/books/?languages=xx", "/books/?languages=enm,grc,ang",
    "/books/?author_year_start=1800", "/books/?author_year_end=-100",
    "/books/?author_year_start=1800&author_year_end=1850&page=3",
    "/books/?author_year_start=abc", "/books/?author_year_end=%201700",
    "/books/?copyright=true", "/books/?copyright=false,true&page=7", "/books/?copyright=null",
    "/books/?copyright=yes",
    "/books/?ids=84,1342,11", "/books/?ids=84,%201342&sort=descending", "/books/?ids=",
    "/books/?ids=84,x", "/books/?ids=99999999999999999999999", "/books/?ids=11,84&sort=ascending",
    "/books/?mime_type=audio", "/books/?mime_type=text/plain%3B", "/books/?mime_type=TEXT/",
    "/books/?mime_type=", "/books/?mime_type=application/epub",
    "/books/?sort=ascending", "/books/?sort=ascending&page=last", "/books/?sort=descending&page=9",
    "/books/?sort=bogus",
    "/books/?languages=en&topic=fiction&sort=ascending&page=4",
    "/books/?search=a&author_year_end=1900&copyright=false",
    "/books/?languages=en&languages=fr", "/books/?foo=bar&languages=de",
    "/books/84/", "/books/1342/", "/books/0/", "/books/99999999/", "/books/84/?languages=fr",
    "/books/84/?search=frankenstein", "/books/84", "/books/?format=api", "/books/84.json",
  ]

  @Test func everyRequestIsAnsweredLikeTheInMemoryEngine() async throws {
    // Seconds of CPU: on a thread of its own, not the pool the parallel suites share.
    try await OwnThread.run {
      let mapped = try embedded.get()
      guard case .mapped(let catalogue) = mapped.storage else {
        Issue.record("the embedded catalogue is not mapped")
        return
      }
      let records = try (0..<catalogue.bookCount).map { try catalogue.record(at: $0) }
      let memory = try GutendexEngine(records: records)
      #expect(Self.requests.count >= 40)
      for path in Self.requests {
        for method in ["GET", "HEAD"] {
          let request = HTTPRequest(
            method: method, url: try #require(URL(string: "http://engine.test" + path)))
          let expected = memory.respond(to: request)
          let actual = mapped.respond(to: request)
          #expect(actual.status == expected.status, "\(method) \(path)")
          #expect(actual.headers == expected.headers, "\(method) \(path)")
          #expect(actual.body == expected.body, "\(method) \(path)")
        }
      }
    }
  }

  @Test func fixtureBooksAnswerEveryFilterCaseLikeTheInMemoryEngine() throws {
    let lines = try Fixture.lines()
    let snapshot = try CatalogueSnapshot.make(
      fromJSONLines: Data(lines.map { text($0) }.joined(separator: "\n").utf8))
    let mapped = try CatalogueSnapshot.engine(from: snapshot)
    let memory = try Fixture.engine()
    for (query, _) in FilterTests.cases {
      for page in ["", "&page=2", "&page=last"] {
        let url = try #require(URL(string: "http://engine.test/books/?\(query)\(page)"))
        let expected = memory.respond(to: HTTPRequest(url: url))
        let actual = mapped.respond(to: HTTPRequest(url: url))
        #expect(actual.status == expected.status, "\(query)\(page)")
        #expect(actual.body == expected.body, "\(query)\(page)")
      }
    }
  }

  @Test func theShippedFilePassesItsChecksums() throws {
    let url = try #require(EmbeddedCatalogue.resourceURL)
    try CatalogueSnapshot.verify(Data(contentsOf: url))
  }

  @Test func aTruncatedOrForeignFileIsRefused() throws {
    let snapshot = try Self.fixtureSnapshot()
    for length in [0, 8, 30, 200, snapshot.count / 2, snapshot.count - 1] {
      #expect(throws: EngineError.self, "\(length) bytes") {
        try CatalogueSnapshot.engine(from: snapshot.prefix(length))
      }
    }
    // Version 1 held lower-cased text, which the upper-folding matcher must not read.
    for version in [1, UInt8(IndexSection.version) + 1] {
      var otherVersion = snapshot
      otherVersion[8] = version
      #expect(throws: EngineError.self) { try CatalogueSnapshot.engine(from: otherVersion) }
    }
    #expect(throws: EngineError.self) {
      try CatalogueSnapshot.engine(mapping: "/nonexistent/catalogue.gdxindex")
    }
  }

  @Test func aFlippedByteFailsTheChecksum() throws {
    var snapshot = try Self.fixtureSnapshot()
    try CatalogueSnapshot.verify(snapshot)
    let records = try Self.section(.records, in: snapshot)
    snapshot[records.lowerBound + 10] ^= 0x40
    #expect(throws: EngineError.self) { try CatalogueSnapshot.verify(snapshot) }
  }

  /// A record that cannot be decoded gives a 500 naming the damage, never a wrong book.
  @Test func aDamagedRecordIsAServerErrorNotAWrongBook() throws {
    var snapshot = try Self.fixtureSnapshot()
    let records = try Self.section(.records, in: snapshot)
    // The first record starts with its title's length: make it a varint that never ends.
    for offset in records.lowerBound..<(records.lowerBound + 12) { snapshot[offset] = 0xFF }
    // With the checksum made to match (a small section's is checked at open): the damage is
    // what a writer would have stored, met only when a query reaches the book.
    try Self.resum(.records, in: &snapshot)
    let engine = try CatalogueSnapshot.engine(from: snapshot)
    let firstID = try #require(try Fixture.engine().bookIDs.first)
    let detail = engine.respond(
      to: HTTPRequest(url: try #require(URL(string: "http://e.test/books/\(firstID)/"))))
    #expect(detail.status == 500)
    #expect(text(detail.body).contains("damaged"))
    let list = engine.respond(
      to: HTTPRequest(url: try #require(URL(string: "http://e.test/books/?sort=ascending"))))
    #expect(list.status == 500)
    let other = engine.respond(
      to: HTTPRequest(url: try #require(URL(string: "http://e.test/books/?sort=descending"))))
    #expect(other.status == 200)
  }

  static func fixtureSnapshot() throws -> Data {
    try CatalogueSnapshot.make(
      fromJSONLines: Data(Fixture.lines().map { text($0) }.joined(separator: "\n").utf8))
  }

  /// Where `section`'s bytes lie in `snapshot`, from the section table.
  /// Writes `section`'s CRC-32 of its bytes as they are now into the section table.
  static func resum(_ section: IndexSection, in snapshot: inout Data) throws {
    let range = try Self.section(section, in: snapshot)
    let crc = CatalogueSnapshot.checksum(Array(snapshot[range]))
    let at = IndexSection.headerSize + IndexSection.entrySize * section.rawValue + 20
    withUnsafeBytes(of: crc.littleEndian) { snapshot.replaceSubrange(at..<at + 4, with: $0) }
  }

  static func section(_ section: IndexSection, in snapshot: Data) throws -> Range<Int> {
    let entry = IndexSection.headerSize + IndexSection.entrySize * section.rawValue
    func uint64(_ at: Int) -> Int {
      (0..<8).reduce(0) { $0 | Int(snapshot[at + $1]) << (8 * $1) }
    }
    let offset = uint64(entry)
    let range = offset..<(offset + uint64(entry + 8))
    try #require(range.upperBound <= snapshot.count)
    return range
  }
}
