import Foundation
import Gutendex
import GutendexEngine

/// A server a month (or a year) after the embedded snapshot: the embedded catalogue plus new
/// releases made from real books (`sync-templates.jsonl`: authors, subjects, bookshelves,
/// summaries, languages and formats as the server gives them), with new ids above the
/// snapshot's and their own titles and download counts.
public enum SyncFixture {
  /// The template books, as the server served them (summaries included).
  public static func templates() throws -> [[String: Any]] {
    try FixtureFiles.data("sync-templates.jsonl").split(separator: 0x0A).map { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
      else { throw HarnessFailure(description: "sync-templates.jsonl: a line is not an object") }
      return object
    }
  }

  /// `count` new books with ids from `firstID` up, deterministic for a given `seed`.
  public static func newBooks(_ count: Int, firstID: Int, seed: Int = 0) throws -> [Data] {
    let templates = try templates()
    return try (0..<count).map { number in
      var book = templates[(number * 7 + seed) % templates.count]
      let other = templates[(number * 13 + seed + 5) % templates.count]
      let id = firstID + number
      let oldID = book["id"] as? Int ?? 0
      book["id"] = id
      let title = (book["title"] as? String ?? "Untitled")
      book["title"] = "\(title), volume \(number % 9 + 2)"
      // Two books' subjects, so topics combine as they do in real catalogues.
      let subjects = (book["subjects"] as? [String] ?? []) + (other["subjects"] as? [String] ?? [])
      book["subjects"] = Array(Set(subjects)).sorted()
      book["download_count"] = (number * 37 + seed) % 500
      if let formats = book["formats"] as? [String: String] {
        book["formats"] = formats.mapValues {
          $0.replacingOccurrences(of: "/\(oldID)", with: "/\(id)")
            .replacingOccurrences(of: "pg\(oldID)", with: "pg\(id)")
        }
      }
      return try JSONSerialization.data(withJSONObject: book, options: [.sortedKeys])
    }
  }

  /// The embedded catalogue's books as JSON, in id order (summaries empty, as it has them).
  public static func embeddedBooks() throws -> [Data] {
    let engine = try EmbeddedCatalogue.load()
    return engine.bookIDs.compactMap { engine.bookJSON(id: $0) }
  }

  /// The embedded catalogue's ids, ascending.
  public static func embeddedIDs() throws -> [Int] {
    try EmbeddedCatalogue.load().bookIDs
  }

  /// The highest id in the embedded catalogue.
  public static func embeddedMaxID() throws -> Int {
    try EmbeddedCatalogue.load().bookIDs.last ?? 0
  }

  /// A server engine: the embedded catalogue with `books` upserted, in memory and built from
  /// JSON (the other storage of the engine than the client's mapped index; the same filters).
  public static func server(embedded: [Data], upserting books: [Data]) throws -> GutendexEngine {
    var byID: [Int: Data] = [:]
    for data in embedded + books {
      guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let id = object["id"] as? Int
      else { throw HarnessFailure(description: "a book without an id") }
      byID[id] = data
    }
    return try GutendexEngine(books: byID.keys.sorted().compactMap { byID[$0] })
  }
}
