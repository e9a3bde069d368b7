import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// The committed fixtures (kept once in `TestSupport`): real books and recorded responses.
enum Fixture {
  /// `recordings/<name>.json` names a recording by its short name; anything else is a path.
  static func url(_ name: String) throws -> URL {
    let prefix = "recordings/"
    guard name.hasPrefix(prefix) else { return try FixtureFiles.url(name) }
    return try FixtureFiles.url(FixtureFiles.recordingPath(String(name.dropFirst(prefix.count))))
  }

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: url(name))
  }

  /// The lines of `books.jsonl`: each one book exactly as the server serves it.
  static func lines() throws -> [Data] {
    try data("books.jsonl").split(separator: UInt8(ascii: "\n")).map { Data($0) }
  }

  /// The fixture books, parsed by Foundation for the reference model.
  static func books() throws -> [[String: Any]] {
    try lines().map { try #require(JSONSerialization.jsonObject(with: $0) as? [String: Any]) }
  }

  static func engine() throws -> GutendexEngine {
    try GutendexEngine(books: lines())
  }

  /// A recorded list response: its books as separate JSON objects, and its ids in order.
  static func recording(_ name: String) throws -> (count: Int, books: [Data], ids: [Int]) {
    let object = try #require(
      JSONSerialization.jsonObject(with: data("recordings/\(name).json")) as? [String: Any])
    let results = try #require(object["results"] as? [[String: Any]])
    let books = try results.map { try JSONSerialization.data(withJSONObject: $0) }
    let ids = try results.map { try #require($0["id"] as? Int) }
    return (try #require(object["count"] as? Int), books, ids)
  }
}

/// A decoded list answer.
struct ListBody {
  var count: Int
  var next: String?
  var previous: String?
  var ids: [Int]

  init(_ response: HTTPResponse) throws {
    let object = try #require(
      JSONSerialization.jsonObject(with: response.body) as? [String: Any],
      "not a JSON object: \(String(decoding: response.body, as: UTF8.self))")
    count = try #require(object["count"] as? Int)
    next = object["next"] as? String
    previous = object["previous"] as? String
    let results = try #require(object["results"] as? [[String: Any]])
    ids = try results.map { try #require($0["id"] as? Int) }
  }
}

/// Sends `target` (a path and query) to the engine as `http://engine.test<target>`.
func get(
  _ engine: GutendexEngine, _ target: String, method: String = "GET",
  headers: [String: String] = [:], host: String = "http://engine.test"
) throws -> HTTPResponse {
  let url = try #require(URL(string: host + target), "bad URL \(target)")
  return engine.respond(to: HTTPRequest(method: method, url: url, headers: headers))
}

/// Every id a list query yields, following the page numbers to the end.
func allIDs(_ engine: GutendexEngine, _ query: String) throws -> (count: Int, ids: [Int]) {
  var ids: [Int] = []
  var page = 1
  var count = 0
  while true {
    let separator = query.isEmpty ? "" : "&"
    let response = try get(engine, "/books/?\(query)\(separator)page=\(page)")
    try #require(response.status == 200, "page \(page) of \(query): \(response.status)")
    let body = try ListBody(response)
    count = body.count
    ids += body.ids
    guard body.next != nil else { break }
    page += 1
  }
  return (count, ids)
}

func text(_ data: Data) -> String {
  String(decoding: data, as: UTF8.self)
}

/// A book in the server's JSON shape, for tests that need exact control over one field.
func syntheticBook(
  id: Int, title: String = "Book", authors: [(String, Int?, Int?)] = [],
  subjects: [String] = [], languages: [String] = ["en"], copyright: Bool? = false,
  formats: [String: String] = [:], downloads: Int = 0
) -> Data {
  func json(_ value: Any) -> String {
    text(
      (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])) ?? Data())
  }
  let people = authors.map { name, birth, death in
    #"{"name":\#(json(name)),"birth_year":\#(birth.map(String.init) ?? "null"),"#
      + #""death_year":\#(death.map(String.init) ?? "null")}"#
  }
  let formatText = formats.sorted { $0.key < $1.key }.map { "\(json($0.key)):\(json($0.value))" }
  let copyrightText = copyright.map { $0 ? "true" : "false" } ?? "null"
  return Data(
    (#"{"id":\#(id),"title":\#(json(title)),"authors":[\#(people.joined(separator: ","))],"#
      + #""summaries":[],"editors":[],"translators":[],"subjects":\#(json(subjects)),"#
      + #""bookshelves":[],"languages":\#(json(languages)),"copyright":\#(copyrightText),"#
      + #""media_type":"Text","formats":{\#(formatText.joined(separator: ","))},"#
      + #""download_count":\#(downloads)}"#).utf8)
}
