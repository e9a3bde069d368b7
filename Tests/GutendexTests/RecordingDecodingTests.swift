import Foundation
import TestSupport
import Testing

@testable import Gutendex

/// Every recording from every era of the server decodes, with real values where they matter.
@Suite struct RecordingDecodingTests {
  static func recordings() throws -> [URL] {
    let root = try FixtureFiles.root()
    let files = try #require(
      FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
    return files.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
      .sorted { $0.path < $1.path }
  }

  @Test func everyRecordingDecodes() throws {
    let files = try Self.recordings()
    #expect(files.count == 45)
    var books = 0
    for file in files {
      let data = try Data(contentsOf: file)
      let page = try BookPage.decode(from: data)
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let results = try #require(object["results"] as? [[String: Any]])
      #expect(page.count == object["count"] as? Int, "\(file.lastPathComponent)")
      #expect(page.next == object["next"] as? String)
      #expect(page.results.map(\.id) == results.compactMap { $0["id"] as? Int })
      #expect(page.results.map(\.title) == results.compactMap { $0["title"] as? String })
      for book in page.results {
        #expect(try Book.decode(from: book.rawJSON) == book)
      }
      books += page.results.count
    }
    #expect(books > 1000)
  }

  /// Each book's `rawJSON` is the exact slice of the file, in order, parsing to the same id.
  @Test func rawJSONIsTheOriginalBytes() throws {
    for file in try Self.recordings() {
      let data = try Data(contentsOf: file)
      let page = try BookPage.decode(from: data)
      var cursor = data.startIndex
      for book in page.results {
        let range = try #require(
          data.range(of: book.rawJSON, in: cursor..<data.endIndex),
          "\(file.lastPathComponent) book \(book.id)")
        #expect(book.rawJSON.first == UInt8(ascii: "{") && book.rawJSON.last == UInt8(ascii: "}"))
        let object = try #require(
          try JSONSerialization.jsonObject(with: book.rawJSON) as? [String: Any])
        #expect(object["id"] as? Int == book.id)
        cursor = range.upperBound
      }
    }
  }

  @Test func longestTitle() throws {
    let book = try Fixtures.book(60045, in: "mirror-2024/en__page_87.json")
    #expect(book.title.count == 958)
    #expect(book.title.hasPrefix("The Golden Wheel Dream-book and Fortune-teller: Being the most"))
    #expect(book.title.hasSuffix("nguage and signification of the flowers."))
  }

  @Test func bookWithTwentyFourAuthors() throws {
    let book = try Fixtures.book(40718, in: "mirror-2024/en__page_389.json")
    #expect(book.title == "Atlantic Narratives: Modern Short Stories; Second Series")
    #expect(book.authors.count == 24)
    #expect(
      book.authors.first
        == Person(name: "Donnell, Annie Hamilton", birthYear: 1862, deathYear: 1943))
    #expect(
      book.authors.last
        == Person(name: "Townsend, Charles Haskins", birthYear: 1859, deathYear: 1944))
  }

  @Test func emptyFormatsAndZeroDownloads() throws {
    let book = try Fixtures.book(77279, in: "mirror-2024/en__page_1835.json")
    #expect(book.title == "What to eat and when")
    #expect(book.formats.isEmpty)
    #expect(book.downloadCount == 0)
    #expect(book.copyright == false)
    #expect(book.subjects == ["Digestion", "Food", "Nutrition"])
  }

  @Test func negativeYearsForBCEAuthors() throws {
    let odyssey = try Fixtures.book(3160, in: "e2-2022-page10.json")
    #expect(odyssey.title == "The Odyssey")
    #expect(odyssey.authors == [Person(name: "Homer", birthYear: -750, deathYear: -650)])
    let greek = try Fixtures.page("mirror-2024/el__page_1.json")
    let euripides = try #require(greek.results.first { $0.id == 17995 }?.authors.first)
    #expect(euripides == Person(name: "Euripides", birthYear: nil, deathYear: -406))
    let latin = try Fixtures.book(8738, in: "mirror-2024/la__page_1.json")
    #expect(latin.authors.first == Person(name: "Ovid", birthYear: -43, deathYear: 17))
  }

  @Test func eraE0HasNoCopyrightTranslatorsSummariesOrEditors() throws {
    let page = try Fixtures.page("e0-2019-topic-fiction-page2.json")
    #expect(page.count == 18777)
    #expect(page.next == "http://skunkworks.ignitesol.com:8000/books/?page=3&topic=Fiction")
    let first = try #require(page.results.first)
    #expect(first.id == 308)
    #expect(first.title == "Three Men in a Boat")
    for book in page.results {
      #expect(book.copyright == nil)
      #expect(book.translators == nil)
      #expect(book.summaries == nil)
      #expect(book.editors == nil)
    }
  }

  @Test func eraE2HasCopyrightAndTranslatorsOnly() throws {
    let page = try Fixtures.page("e2-2022-page10.json")
    for book in page.results {
      #expect(book.copyright != nil)
      #expect(book.translators != nil)
      #expect(book.summaries == nil)
      #expect(book.editors == nil)
    }
  }

  @Test func eraE3HasSummaries() throws {
    let page = try Fixtures.page("e3-2025-page1.json")
    let book = try #require(page.results.first)
    #expect(book.id == 26184)
    #expect(book.title == "Simple Sabotage Field Manual")
    let summary = try #require(book.summaries?.first)
    #expect(summary.hasPrefix("\"Simple Sabotage Field Manual\" by United States. Office of S"))
    #expect(page.results.allSatisfy { $0.summaries != nil && $0.editors == nil })
  }

  @Test func eraE4HasSummariesAndEditors() throws {
    let page = try Fixtures.page("e4-2025-page1.json")
    let book = try #require(page.results.first)
    #expect(book.id == 84)
    #expect(book.title == "Frankenstein; Or, The Modern Prometheus")
    #expect(
      book.summaries?.first?.hasPrefix("\"Frankenstein; Or, The Modern Prometheus\" by Mary")
        == true)
    #expect(page.results.allSatisfy { $0.summaries != nil && $0.editors != nil })
  }

  @Test(arguments: [
    (52, "mirror-2024/en__page_1020.json", "Dataset", "The Square Root of 2"),
    (
      13082, "mirror-2024/en__page_103.json", "MovingImage",
      "Images of Comet Wild 2, Taken by NASA's"
    ),
    (5714, "mirror-2024/en__page_1170.json", "Image", "String Quartet No. 58 in F Major, Op. 74"),
    (758, "mirror-2024/en__page_137.json", "StillImage", "LandSat Picture of Washington, DC"),
    (
      11220, "mirror-2024/en__page_366.json", "Collection",
      "Project Gutenberg \"Best Of\" CD August"
    ),
    (23085, "e2-2022-search-colors.json", "Sound", "The Colors of Space"),
  ])
  func mediaTypes(id: Int, file: String, mediaType: String, titlePrefix: String) throws {
    let book = try Fixtures.book(id, in: file)
    #expect(book.mediaType == mediaType)
    #expect(book.title.hasPrefix(titlePrefix))
  }

  @Test(arguments: [
    (22120, "e2-2022-page10.json", ["enm"]),
    (50212, "mirror-2024/en__page_218.json", ["en", "grc"]),
    (27326, "mirror-2024/es__page_6.json", ["bgs", "es"]),
    (28296, "mirror-2024/pl__page_1.json", ["csb", "pl"]),
  ])
  func threeLetterLanguageCodes(id: Int, file: String, languages: [String]) throws {
    #expect(try Fixtures.book(id, in: file).languages == languages)
  }

  @Test func c1ControlCharactersPreserved() throws {
    let american = try Fixtures.book(43282, in: "mirror-2024/en__page_775.json")
    #expect(
      american.title
        == "Scientific American, Vol. XXXIX.\u{97}No. 6. [New Series.], August 10, 1878")
    #expect(american.title.unicodeScalars.contains("\u{97}"))
    let potowski = try Fixtures.book(58366, in: "mirror-2024/fr__page_102.json")
    #expect(potowski.title.contains("Un roman de coe\u{9C}ur par Marat"))
  }

  @Test func bidiMarksPreserved() throws {
    let hay = try Fixtures.book(43365, in: "mirror-2024/en__page_512.json")
    #expect(
      hay.translators?.first?.name == "Hay, Gilbert,\u{200F} \u{200E}Sir,\u{200F} active 1456")
    let capsius = try Fixtures.book(58941, in: "mirror-2024/de__page_17.json")
    #expect(capsius.translators?.first?.name == "Capsius, M.\u{200F}")
  }

  @Test func emptyResultSets() throws {
    for name in ["e2-2022-no-results.json", "mirror-2024/zu__page_1.json"] {
      let page = try Fixtures.page(name)
      #expect(page.count == 0)
      #expect(page.results.isEmpty)
      #expect(page.next == nil)
      #expect(page.pageCount == 1)
    }
  }

  /// Encoding writes the E4 shape; decoding that gives the same book (absent fields as empty).
  @Test func encodeRoundTrip() throws {
    for file in try Self.recordings() {
      for book in try BookPage.decode(from: Data(contentsOf: file)).results {
        let encoded = try JSONEncoder().encode(book)
        var decoded = try Book.decode(from: encoded)
        #expect(decoded.rawJSON == encoded)
        var expected = book
        expected.summaries = book.summaries ?? []
        expected.editors = book.editors ?? []
        expected.translators = book.translators ?? []
        decoded.rawJSON = book.rawJSON
        #expect(decoded == expected, "\(file.lastPathComponent) book \(book.id)")
      }
    }
  }

  @Test func bookMadeInCodeCarriesItsEncoding() throws {
    let book = Book(
      id: 7, title: "Test \u{97} \u{200F}", authors: [Person(name: "Homer", birthYear: -750)],
      languages: ["grc"], copyright: nil, formats: [:])
    #expect(!book.rawJSON.isEmpty)
    #expect(
      try Book.decode(from: book.rawJSON)
        == Book(
          id: 7, title: "Test \u{97} \u{200F}", authors: [Person(name: "Homer", birthYear: -750)],
          summaries: [], editors: [], translators: [], languages: ["grc"], rawJSON: book.rawJSON))
  }
}
