import Foundation
import Testing

@testable import Gutendex

/// A number no 64-bit integer holds makes one field out of range, never the whole document
/// unreadable: Foundation's decoder calls such a document "not valid JSON", with no path.
struct OutOfRangeNumberTests {
  static func book(birth: String, count: String = "5", title: String = "T") -> Data {
    Data(
      """
      {"id": 7, "title": "\(title)", "authors": [{"name": "N", "birth_year": \(birth), \
      "death_year": null}], "languages": ["en"], "download_count": \(count)}
      """.utf8)
  }

  @Test(arguments: [
    ("99999999999999999999999999", Int.max), ("-99999999999999999999999999", Int.min),
    ("1e400", Int.max), ("-1e400", Int.min), ("1e19", Int.max), ("9223372036854775808", Int.max),
  ])
  func aYearNoIntegerHoldsIsPinnedToTheNearest(literal: String, pinned: Int) throws {
    let book = try Book.decode(from: Self.book(birth: literal))
    #expect(book.id == 7)
    #expect(book.authors.first?.birthYear == pinned)
    #expect(book.downloadCount == 5)
    // What is kept is what was read: the pinned value decodes again alike.
    #expect(try Book.decode(from: book.rawJSON).authors.first?.birthYear == pinned)
  }

  @Test func aCountNoIntegerHoldsIsPinnedAndThePageReadsWhole() throws {
    let hostile = String(decoding: Self.book(birth: "1800", count: "1e400"), as: UTF8.self)
    let sound = String(decoding: Self.book(birth: "1800"), as: UTF8.self)
    let page = Data(
      #"{"count": 2, "next": null, "previous": null, "results": [\#(hostile), \#(sound)]}"#.utf8)
    let decoded = try BookPage.decode(from: page)
    #expect(decoded.results.map(\.downloadCount) == [Int.max, 5])
  }

  /// An id past 64 bits is left by the fast path and pinned by the other (Foundation alone
  /// reads the document as invalid).
  @Test func anIDPast64BitsIsPinned() throws {
    let json = Data(#"{"id":9223372036854775808}"#.utf8)
    #expect(Book.decodeFast(json) == nil)
    #expect(try Book.decode(from: json).id == Int.max)
  }

  /// Numbers that fit, and digits inside strings, are left as they are.
  @Test func numbersThatFitAndStringsAreUntouched() {
    #expect(OutOfRangeNumbers.clamped(Self.book(birth: "-9223372036854775808")) == nil)
    #expect(OutOfRangeNumbers.clamped(Self.book(birth: "1.5e3")) == nil)
    let inTitle = Self.book(birth: "1", title: #"99999999999999999999999 \" 1e400"#)
    #expect(OutOfRangeNumbers.clamped(inTitle) == nil)
  }

  /// A value that is wrong for another reason still fails, naming where.
  @Test func otherBadValuesStillFailNamingThePath() {
    #expect(throws: BookDecodingError.self) {
      try Book.decode(from: Self.book(birth: "\"soon\""), path: "results[0]")
    }
    #expect(throws: BookDecodingError.self) { try Book.decode(from: Data("{\"id\": 1e400".utf8)) }
  }
}
