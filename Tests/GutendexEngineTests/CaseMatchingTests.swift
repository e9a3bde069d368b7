import Foundation
import TestSupport
import Testing

@testable import GutendexEngine

/// `search` and `topic` fold case like the real server's PostgreSQL (`UPPER(x) LIKE UPPER(y)`:
/// glibc's simple uppercase mapping, one code point at a time), not like Swift's `lowercased()`.
@Suite("Case matching as PostgreSQL does it")
struct CaseMatchingTests {
  /// Books whose titles and subjects hold the letters where the two foldings disagree.
  static let books: [Data] = [
    syntheticBook(id: 1, title: "ΤΌΜΟΣ ΠΡΏΤΟΣ", downloads: 20),
    syntheticBook(id: 2, title: "Ὁ τόμος δεύτερος", downloads: 19),
    syntheticBook(id: 3, title: "Straße", subjects: ["Deutsche Straßen"], downloads: 18),
    syntheticBook(id: 4, title: "STRASSE", downloads: 17),
    syntheticBook(id: 5, title: "\u{1E9E}ARP", downloads: 16),
    syntheticBook(id: 6, title: "\u{FB01}nal", downloads: 15),
    syntheticBook(id: 7, title: "FINAL", downloads: 14),
    syntheticBook(id: 8, title: "\u{130}zmir", downloads: 13),
    syntheticBook(id: 9, title: "izmir", downloads: 12),
    syntheticBook(id: 10, title: "\u{131}spart", downloads: 11),
    syntheticBook(id: 11, title: "300 \u{212A}", downloads: 10),
    syntheticBook(id: 12, title: "Kenya", authors: [("Kōbō, Abe", 1924, 1993)], downloads: 9),
    syntheticBook(id: 13, title: "Lo\u{17F}t", subjects: ["Hiſtory"], downloads: 8),
    syntheticBook(id: 14, title: "Caf\u{E9}", downloads: 7),
    syntheticBook(id: 15, title: "Cafe\u{301}", downloads: 6),
    syntheticBook(id: 16, title: "Þorp", subjects: ["HISTORY"], downloads: 5),
  ]

  /// Queries (decoded) with the ids the rule gives, worked out by hand from the mapping.
  static let cases: [(parameter: String, value: String, ids: [Int])] = [
    ("search", "ΤΌΜΟΣ", [1, 2]),  // final ς upper-cases to Σ
    ("search", "τόμοσ", [1, 2]),  // so does medial σ
    ("search", "\u{131}", [7, 8, 9, 10]),  // ı → I; ﬁ stays ﬁ, İ stays İ (zmir has an i)
    ("search", "\u{130}", [8]),
    ("search", "\u{17F}", [3, 4, 10, 13]),  // ſ → S; ß stays ß
    ("search", "\u{212A}", [11]),  // the Kelvin sign is upper case already
    ("search", "k", [12]),
    ("search", "ß", [3]),
    ("search", "\u{1E9E}", [5]),
    ("search", "ss", [4]),
    ("search", "\u{FB01}", [6]),
    ("search", "fi", [7]),
    ("search", "\u{E9}", [14]),  // code points compared: é is not e + U+0301
    ("search", "e\u{301}", [15]),
    ("search", "þ", [16]),
    ("search", "ō", [12]),  // author names fold the same way
    ("topic", "\u{17F}", [3, 13, 16]),
    ("topic", "history", [13, 16]),  // Hiſtory upper-cases to HISTORY
  ]

  @Test("glibc's towupper and the engine agree on every code point glibc knows")
  func foldMatchesGlibc() throws {
    try #require(PostgresUpper.isAvailable, "no towupper_l / C.UTF-8 to compare with")
    var checked = 0
    var disagreements: [String] = []
    func known(_ scalar: Unicode.Scalar) -> Bool {
      guard let age = scalar.properties.age else { return false }
      return age.major < 14 || (age.major == 14 && age.minor == 0)
    }
    for value in 0...0x10FFFF {
      // Code points and mappings newer than Unicode 14 may be unknown to the C library the tests
      // run on (Unicode 16 gave ƛ an upper case, for instance).
      // Only cased code points have case mappings, in Unicode and in glibc alike.
      guard let scalar = Unicode.Scalar(value), scalar.properties.isCased, known(scalar),
        known(UpperFold.upper(scalar))
      else { continue }
      checked += 1
      let expected = PostgresUpper.upper(scalar)
      if UpperFold.upper(scalar) != expected
        || UpperFold.bytes(String(scalar)) != Array(String(expected).utf8)
      {
        disagreements.append("U+\(String(value, radix: 16))")
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    #expect(checked > 4_000)
  }

  @Test("crafted books: the hand-worked ids, the reference model's, the engine's", arguments: cases)
  func craftedBooks(parameter: String, value: String, ids: [Int]) throws {
    let encoded = try #require(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
    let query = "\(parameter)=\(encoded)"
    let objects = try Self.books.map {
      try #require(JSONSerialization.jsonObject(with: $0) as? [String: Any])
    }
    let model = ReferenceModel(objects).ids([parameter: value])
    #expect(model == ids, "the reference model disagrees with the hand-worked rule")
    let memory = try GutendexEngine(books: Self.books)
    #expect(try allIDs(memory, query).ids == ids)
    let snapshot = try CatalogueSnapshot.make(
      fromJSONLines: Data(Self.books.map(text).joined(separator: "\n").utf8))
    let mapped = try CatalogueSnapshot.engine(from: snapshot)
    #expect(try allIDs(mapped, query).ids == ids)
  }

  /// Queries over the embedded catalogue, with the real Gutendex's count where it is known.
  static let catalogueQueries: [(parameter: String, value: String, server: Int?)] = [
    ("search", "ΤΌΜΟΣ", 53), ("search", "\u{131}", 71_137), ("search", "\u{17F}", 70_713),
    ("search", "\u{212A}", 0), ("topic", "\u{17F}", 75_182), ("search", "Straße", nil),
  ]

  @Test("embedded catalogue: the reference model's counts, and the real server's where known")
  func embeddedCounts() async throws {
    // Seconds of CPU: on a thread of its own, not the pool the parallel suites share.
    try await OwnThread.run {
      let engine = try embedded.get()
      guard case .mapped(let catalogue) = engine.storage else {
        Issue.record("the embedded catalogue is not mapped")
        return
      }
      // One pass over the books, each judged by a one-book reference model and then dropped, so
      // the test never holds the whole catalogue in memory.
      var expected = [Int](repeating: 0, count: Self.catalogueQueries.count)
      for position in 0..<catalogue.bookCount {
        let record = try catalogue.record(at: position)
        var model = ReferenceModel([])
        model.books = [
          ReferenceModel.Book(
            id: record.id, title: record.title,
            authors: record.authors.map { ($0.name, $0.birthYear, $0.deathYear) },
            topics: record.subjects + record.bookshelves, languages: record.languages,
            copyright: record.copyright, mimeTypes: record.formats.map(\.mime),
            downloads: record.downloadCount)
        ]
        for (index, query) in Self.catalogueQueries.enumerated()
        where !model.ids([query.parameter: query.value]).isEmpty {
          expected[index] += 1
        }
      }
      for (index, query) in Self.catalogueQueries.enumerated() {
        let encoded = try #require(
          query.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let body = try ListBody(get(engine, "/books/?\(query.parameter)=\(encoded)"))
        #expect(body.count == expected[index], "\(query.parameter)=\(query.value)")
        if let server = query.server {
          #expect(expected[index] == server, "the real Gutendex finds \(server)")
        }
      }
    }
  }
}
