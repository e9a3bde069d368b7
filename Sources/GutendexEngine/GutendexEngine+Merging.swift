import Foundation
import Gutendex

extension GutendexEngine {
  /// Whether the engine's books carry their summaries (a synced local catalogue does; the
  /// embedded snapshot does not).
  public var keepsSummaries: Bool {
    switch storage {
    case .memory: true
    case .mapped(let books): books.hasSummaries
    }
  }

  /// What ``mergedIndex(upserting:)`` made: the new index file and what changed.
  public struct Merge: Sendable {
    /// The index file's bytes (summaries kept).
    public var index: Data
    /// Ids of books the engine did not have.
    public var added: [Int]
    /// Ids of books whose JSON changed.
    public var updated: [Int]
    /// How many books the new index holds.
    public var bookCount: Int
  }

  /// An index of this engine's books with `books` (raw JSON in the server's shape) upserted:
  /// a given book replaces the one with its id, so a synced copy overrides the snapshot's.
  /// A book the server would hide (null title or download count) removes nothing.
  public func mergedIndex(upserting books: [Data]) throws -> Merge {
    var incoming: [Int: BookRecord] = [:]
    for (number, data) in books.enumerated() {
      var reader = JSONParser(Array(data), options: BookRecord.jsonOptions)
      do {
        if let record = try BookRecord.read(from: &reader) { incoming[record.id] = record }
      } catch {
        throw EngineError.badJSON(book: number, offset: error.offset, reason: error.reason)
      }
    }
    var records = try allRecords()
    var added: [Int] = []
    var updated: [Int] = []
    for index in records.indices {
      guard let fresh = incoming.removeValue(forKey: records[index].id) else { continue }
      if fresh.json != records[index].json { updated.append(fresh.id) }
      records[index] = fresh
    }
    added = incoming.keys.sorted()
    records += incoming.values
    let index = try CatalogueSnapshot.make(records: records, keepingSummaries: true)
    return Merge(index: index, added: added, updated: updated.sorted(), bookCount: records.count)
  }

  /// What upserting `books` would change, without building anything: the ids it would add
  /// and those whose JSON differs from this engine's (a cheap check before a rebuild).
  public func changes(upserting books: [Data]) -> (added: [Int], updated: [Int]) {
    var latest: [Int: [UInt8]] = [:]
    for data in books {
      var reader = JSONParser(Array(data), options: BookRecord.jsonOptions)
      if let record = try? BookRecord.read(from: &reader) { latest[record.id] = record.json }
    }
    var added: [Int] = []
    var updated: [Int] = []
    for (id, json) in latest {
      guard let current = bookJSON(id: id) else {
        added.append(id)
        continue
      }
      if Data(json) != current { updated.append(id) }
    }
    return (added.sorted(), updated.sorted())
  }

  /// Every book, in id order, decoded.
  func allRecords() throws(EngineError) -> [BookRecord] {
    switch storage {
    case .memory(let books): return books.records
    case .mapped(let books): return try books.allRecords()
    }
  }
}
