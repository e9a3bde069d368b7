import Foundation
import Gutendex

/// A Gutendex server in a value: answers `/books/` and `/books/<id>/` from a local set of books
/// with the real server's semantics (filters, sort, pagination, links, errors, redirects).
///
/// Use it as the transport of a `GutendexClient` (any host in the URL works; links use the
/// request's host), or behind an HTTP server. Loading builds an index so a query over the whole
/// catalogue takes milliseconds; only the books of the requested page are serialized.
public final class GutendexEngine: Requestable {
  /// The books, sorted by id. Immutable after init, so the class is safely `Sendable`.
  let records: [BookRecord]
  let index: BookIndex

  /// How many books the engine serves.
  public var bookCount: Int { records.count }

  /// The ids of every book, ascending.
  public var bookIDs: [Int] { records.map(\.id) }

  /// Loads books given as raw JSON objects in the server's shape (any era's keys).
  ///
  /// Books whose `title` or `download_count` is null are hidden, as on the server.
  public convenience init(books: [Data]) throws {
    var records: [BookRecord] = []
    records.reserveCapacity(books.count)
    for (number, data) in books.enumerated() {
      var reader = JSONParser(Array(data), options: BookRecord.jsonOptions)
      do {
        if let record = try BookRecord.read(from: &reader) { records.append(record) }
      } catch {
        throw EngineError.badJSON(book: number, offset: error.offset, reason: error.reason)
      }
    }
    try self.init(records: records)
  }

  /// Loads books given as JSON Lines: one book object per non-blank line.
  public convenience init(jsonLines: Data) throws {
    try self.init(records: Self.readLines(Array(jsonLines)))
  }

  /// `columns`, when given, describe `records` in their given order (a snapshot's).
  init(records: [BookRecord], columns: TableColumns? = nil) throws {
    var ids = records.map(\.id)
    let inOrder = zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }
    var sorted = records
    if !inOrder {
      sorted.sort { $0.id < $1.id }
      ids.sort()
      for (left, right) in zip(ids, ids.dropFirst()) where left == right {
        throw EngineError.duplicateID(left)
      }
    }
    self.records = sorted
    self.index = BookIndex(records: sorted, columns: inOrder ? columns : nil)
  }

  /// The JSON the detail endpoint gives for a book (no filters), nil when there is none.
  public func bookJSON(id: Int) -> Data? {
    guard let position = index.positions[id] else { return nil }
    return Data(records[Int(position)].json)
  }

  /// Answers one request; the engine never fails, errors are HTTP answers as on the server.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    respond(to: request)
  }

  static func readLines(_ bytes: [UInt8]) throws -> [BookRecord] {
    var records: [BookRecord] = []
    var reader = JSONParser(bytes, options: BookRecord.jsonOptions)
    var number = 0
    while reader.peek() != nil {
      do {
        if let record = try BookRecord.read(from: &reader) { records.append(record) }
      } catch {
        throw EngineError.badJSON(book: number, offset: error.offset, reason: error.reason)
      }
      number += 1
    }
    return records
  }
}
