import Foundation
import Gutendex

extension GutendexEngine {
  /// Whether the engine's books carry their summaries (a synced local catalogue does; the
  /// embedded snapshot does not).
  public var keepsSummaries: Bool {
    if delta != nil { return true }
    switch storage {
    case .memory: return true
    case .mapped(let books): return books.hasSummaries
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

  /// The delta index of this engine with `books` (raw JSON in the server's shape) upserted: the
  /// delta's books, plus each given book that is new or differs from this engine's answer.
  /// Only the delta is written, so a sync costs what it brings, not the whole catalogue. (A
  /// sync builds it with ``DeltaBuilder`` as it reads its pending books; this is the same
  /// build over books given at once, its temporary files in the system's temporary directory.)
  public func deltaIndex(upserting books: [Data]) throws -> Merge {
    let directory = FileManager.default.temporaryDirectory
    var builder = try DeltaBuilder(engine: self, in: directory)
    defer { builder.close() }
    for book in books { try builder.add(book) }
    let url = directory.appendingPathComponent("delta-\(UUID().uuidString).gdxindex")
    defer { try? FileManager.default.removeItem(at: url) }
    let bookCount = try builder.write(to: url)
    return Merge(
      index: try Data(contentsOf: url), added: builder.added.sorted(),
      updated: builder.updated.sorted(), bookCount: bookCount)
  }

  /// Whether the base (not the delta) holds book `id`.
  func baseHolds(_ id: Int) -> Bool {
    switch storage {
    case .memory(let books): books.position(of: id) != nil
    case .mapped(let books): books.position(of: id) != nil
    }
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
      guard let current = bookJSON(id: id) else {
        added.append(id)
        continue
      }
      if Data(json) != current { updated.append(id) }
    }
    return (added.sorted(), updated.sorted())
  }

  /// Every book, in id order, decoded (the delta's replacing the base's).
  func allRecords() throws(EngineError) -> [BookRecord] {
    let base: [BookRecord]
    switch storage {
    case .memory(let books): base = books.records
    case .mapped(let books): base = try books.allRecords()
    }
    guard let delta else { return base }
    let fresh = try delta.allRecords()
    let ids = Set(fresh.map(\.id))
    return (base.filter { !ids.contains($0.id) } + fresh).sorted { $0.id < $1.id }
  }

  /// The delta's books, decoded, in id order.
  func deltaRecords() throws(EngineError) -> [BookRecord] {
    try delta?.allRecords() ?? []
  }
}

/// Books given as raw JSON in the server's shape, each read once, in the order given, into
/// what the index will hold: the record (its lists cut to ``IndexLimits``), or why it is left
/// out.
struct IncomingBooks {
  /// One book as read.
  enum Read {
    /// A book to store, with what was cut to fit the index ("70000 subjects, 65535 kept").
    case book(BookRecord, cuts: [String])
    /// A book the server's rules hide (a null title or download count).
    case hidden
    /// Not a book the engine can read.
    case unreadable(JSONParseError)
    /// A number the index cannot store.
    case outOfRange(IndexLimits.OutOfRange)
  }

  var records: [Read]

  init(_ books: [Data]) {
    records = books.map { Self.read(Array($0)) }
  }

  /// One book, read.
  static func read(_ bytes: [UInt8]) -> Read {
    var reader = JSONParser(bytes, options: BookRecord.jsonOptions)
    do throws(JSONParseError) {
      guard let record = try BookRecord.read(from: &reader) else { return .hidden }
      switch IndexLimits.fit(record) {
      case .kept(let fitted, let cuts): return .book(fitted, cuts: cuts)
      case .skipped(let problem): return .outOfRange(problem)
      }
    } catch {
      return .unreadable(error)
    }
  }

  /// One phrase per book left out, naming it: "book 5 (download_count 2147483648 is out of
  /// range (0 to 2147483647))".
  var skipped: [String] {
    records.enumerated().compactMap { number, read in
      switch read {
      case .outOfRange(let problem): "book \(problem.id) (\(problem))"
      case .unreadable(let error): "pending book #\(number) (\(error.reason))"
      default: nil
      }
    }
  }

  /// One phrase per book cut to the index's limits: "book 5 (70000 subjects, 65535 kept)".
  var cut: [String] {
    records.compactMap { read in
      guard case .book(let record, let cuts) = read, !cuts.isEmpty else { return nil }
      return "book \(record.id) (\(cuts.joined(separator: ", ")))"
    }
  }
}
