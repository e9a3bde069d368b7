import Foundation
import Gutendex

/// An engine's books with others upserted, given at once: the whole merged index, or only the
/// delta, and what either would change. (A sync builds its delta with ``DeltaBuilder`` as it
/// reads its pending books; these are the same rules over books held in memory.)
public struct CatalogueUpsert: Sendable {
  /// The books upserted into.
  let engine: GutendexEngine

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
    var records = try engine.allRecords()
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

  /// The delta index of this engine with `books` (raw JSON in the server's shape) upserted: the
  /// delta's books, plus each given book that is new or differs from this engine's answer.
  /// Only the delta is written, so a sync costs what it brings, not the whole catalogue. (A
  /// sync builds it with ``DeltaBuilder`` as it reads its pending books; this is the same
  /// build over books given at once, its temporary files in the system's temporary directory.)
  public func deltaIndex(upserting books: [Data]) throws -> Merge {
    let directory = FileManager.default.temporaryDirectory
    var builder = try DeltaBuilder(engine: engine, in: directory)
    defer { builder.close() }
    for book in books { try builder.add(book) }
    let url = directory.appendingPathComponent("delta-\(UUID().uuidString).gdxindex")
    defer { try? FileManager.default.removeItem(at: url) }
    let bookCount = try builder.write(to: url)
    return Merge(
      index: try Data(contentsOf: url), added: builder.added.sorted(),
      updated: builder.updated.sorted(), bookCount: bookCount)
  }

  /// What upserting `books` would change, without building anything: the ids it would add
  /// and those whose JSON differs from this engine's (a cheap check before a rebuild).
  public func changes(upserting books: [Data]) -> (added: [Int], updated: [Int]) {
    changes(upserting: IncomingBooks(books))
  }

  /// ``changes(upserting:)`` of books already read.
  func changes(upserting books: IncomingBooks) -> (added: [Int], updated: [Int]) {
    var latest: [Int: [UInt8]] = [:]
    for case .book(let record, _) in books.records { latest[record.id] = record.json }
    var added: [Int] = []
    var updated: [Int] = []
    for (id, json) in latest {
      guard let current = engine.bookJSON(id: id) else {
        added.append(id)
        continue
      }
      if Data(json) != current { updated.append(id) }
    }
    return (added.sorted(), updated.sorted())
  }
}
