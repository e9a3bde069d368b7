import Foundation
import Testing

@testable import Gutendex

/// The fast decoding path gives exactly the `Codable` path's books, and steps aside (nil) for
/// every input that path might judge differently.
@Suite struct BookFastDecodingTests {
  /// The `Codable` path alone, as `Book.decode` did before the fast path.
  static func codable(_ json: String) -> Result<Book, BookDecodingError> {
    let data = Data(json.utf8)
    do {
      var book = try JSONDecoder().decode(Book.self, from: data)
      book.rawJSON = data
      return .success(book)
    } catch let error as DecodingError {
      return .failure(BookDecodingError(decoding: error, prefix: ""))
    } catch {
      return .failure(BookDecodingError(path: "", reason: String(describing: error)))
    }
  }

  static func decode(_ json: String) -> Result<Book, BookDecodingError> {
    Result { () throws(BookDecodingError) in try Book.decode(from: Data(json.utf8)) }
  }

  @Test func everyRecordedBookTakesTheFastPathAndMatchesCodable() throws {
    var books = 0
    for file in try RecordingDecodingTests.recordings() {
      let data = try Data(contentsOf: file)
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let results = try #require(object["results"] as? [Any])
      for result in results {
        let bytes = try JSONSerialization.data(withJSONObject: result)
        let json = String(decoding: bytes, as: UTF8.self)
        let fast = try #require(Book.decodeFast(bytes), "\(file.lastPathComponent)")
        #expect(Result.success(fast) == Self.codable(json), "\(file.lastPathComponent)")
        books += 1
      }
      // The page's own bytes (the server's spacing and escapes) too.
      for book in try BookPage.decode(from: data).results {
        let fast = try #require(Book.decodeFast(book.rawJSON))
        #expect(
          Result.success(fast) == Self.codable(String(decoding: book.rawJSON, as: UTF8.self)))
      }
    }
    #expect(books > 1000)
  }

  @Test(arguments: [
    #"{"id":1}"#,
    #" {"id":-7,"title":null,"authors":null,"summaries":null,"editors":null} "#,
    #"{"id":2,"translators":null,"subjects":null,"bookshelves":null,"languages":null}"#,
    #"{"id":3,"copyright":null,"media_type":null,"formats":null,"download_count":null}"#,
    #"{"id":4,"copyright":true,"media_type":"Sound","download_count":0,"formats":{}}"#,
    #"{"id":5,"title":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\u0000","summaries":[]}"#,
    #"{"id":6,"authors":[{"name":null,"birth_year":-500,"death_year":null,"extra":[1]}]}"#,
    #"{"id":7,"future":{"a":[1.5e-3,-0.25,true,false,null,"x",{"b":{}}],"c":[]}}"#,
    #"{"id":8,"formats":{"text/html":"https://x.test/8.html","text/plain":"https://x.test/8"}}"#,
    #"{"id":9,"x":1,"x":2,"editors":[],"translators":[{"name":"T, U"}]}"#,
  ])
  func wellFormedBooksTakeTheFastPath(json: String) throws {
    let fast = try #require(Book.decodeFast(Data(json.utf8)))
    #expect(Result.success(fast) == Self.codable(json))
    #expect(Self.decode(json) == Self.codable(json))
  }

  @Test(arguments: [
    // Numbers that are not plain integers where integers are expected.
    #"{"id":1.0}"#, #"{"id":-0}"#, #"{"id":1e2}"#,
    #"{"id":1,"download_count":"5"}"#, #"{"id":1,"authors":[{"birth_year":1.5}]}"#,
    // Missing or null id, wrong types, repeated known keys.
    #"{"title":"x"}"#, #"{"id":null}"#, #"{"id":1,"title":5}"#, #"{"id":1,"id":2}"#,
    #"{"id":1,"authors":[{"name":"a","name":"b"}]}"#, #"{"id":1,"formats":{"a":"1","a":"2"}}"#,
    #"{"id":1,"formats":{"a":null}}"#, #"{"id":1,"copyright":"true"}"#, #"{"id":1,"authors":{}}"#,
    // JSON the strict reader does not accept (the Codable path may, or may fail).
    #"{"id":1,"x":01}"#, #"{"id":1,"x":1.}"#, #"{"id":1,"x":[1,]}"#, #"{"id":1,}"#,
    #"{"id":1,"x":tru}"#, #"{"id":1,"title":"\ud800"}"#, #"{"id":1,"title":"\x"}"#,
    "{\"id\":1,\"title\":\"a\u{01}b\"}", #"{"id":1} x"#, #"[{"id":1}]"#, #"{"id":1"#, "",
  ])
  func everythingElseIsLeftToCodable(json: String) {
    #expect(Book.decodeFast(Data(json.utf8)) == nil)
    #expect(Self.decode(json) == Self.codable(json))
  }

  @Test func invalidUTF8IsLeftToCodable() {
    var bytes = Array(#"{"id":1,"title":"a"#.utf8)
    bytes += [0xC3, 0x28]
    bytes += Array(#""}"#.utf8)
    #expect(Book.decodeFast(Data(bytes)) == nil)
  }

  @Test func deepNestingIsLeftToCodable() {
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    let json = #"{"id":1,"x":\#(deep)}"#
    #expect(Book.decodeFast(Data(json.utf8)) == nil)
    #expect(Self.decode(json) == Self.codable(json))
  }
}
