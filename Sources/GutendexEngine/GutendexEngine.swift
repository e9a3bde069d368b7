import Foundation
import Gutendex
import Synchronization

/// A Gutendex server in a value: answers `/books/` and `/books/<id>/` from a local set of books
/// with the real server's semantics (filters, sort, pagination, links, errors, redirects).
///
/// Use it as the transport of a `GutendexClient` (any host in the URL works; links use the
/// request's host), or behind an HTTP server. Loading builds an index so a query over the whole
/// catalogue takes milliseconds; only the books of the requested page are serialized.
public final class GutendexEngine: Requestable {
  /// Where the books live: decoded in memory, or in a mapped index file.
  enum Storage: Sendable {
    case memory(RecordColumns)
    case mapped(MappedCatalogue)
  }

  /// Immutable after init, so the class is safely `Sendable`.
  let storage: Storage
  /// Books synced since the base was built (an index of their own, summaries kept): every
  /// query merges them with `storage`, a delta book replacing the base book with its id.
  let delta: MappedCatalogue?
  /// How many delta books the base does not hold.
  let deltaAdded: Int
  /// The base books the delta replaces (found once, as the engine opens).
  let shadow: IndexedQuery.Shadow
  /// The words "did you mean" picks from, read on first use (a `Mutex` is `Sendable`).
  let vocabularyCache = Mutex<Vocabulary?>(nil)

  /// How many books the engine serves.
  public var bookCount: Int { baseBookCount + deltaAdded }

  /// How many books the base holds (the snapshot, or the last feed refresh).
  public var baseBookCount: Int {
    switch storage {
    case .memory(let books): books.bookCount
    case .mapped(let books): books.bookCount
    }
  }

  /// How many books the delta holds (synced since the base was built).
  public var deltaBookCount: Int { delta?.bookCount ?? 0 }

  /// How many delta books are new (not in the base).
  public var addedBookCount: Int { deltaAdded }

  /// The ids of every book, ascending.
  public var bookIDs: [Int] {
    var ids: [Int] = []
    ids.reserveCapacity(bookCount)
    forEachBookID { ids.append($0) }
    return ids
  }

  /// The ids of the delta's books, ascending.
  public var deltaBookIDs: [Int] {
    delta.map { delta in (0..<delta.bookCount).map(delta.id(at:)) } ?? []
  }

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

  init(records: [BookRecord]) throws {
    var sorted = records
    if !zip(records, records.dropFirst()).allSatisfy({ $0.id < $1.id }) {
      sorted.sort { $0.id < $1.id }
      for (left, right) in zip(sorted, sorted.dropFirst()) where left.id == right.id {
        throw EngineError.duplicateID(left.id)
      }
    }
    storage = .memory(RecordColumns(sortedRecords: sorted))
    delta = nil
    deltaAdded = 0
    shadow = .none
  }

  init(mapped: MappedCatalogue, delta: MappedCatalogue? = nil) {
    storage = .mapped(mapped)
    self.delta = delta
    let shadow = IndexedQuery.Shadow(base: mapped, delta: delta)
    self.shadow = shadow
    deltaAdded = (delta?.bookCount ?? 0) - shadow.positions.count
  }

  /// Every check of the index files behind the engine, beyond those made when they were
  /// opened: each section's checksum, and every book decoded from its record (`gutenberg
  /// doctor`; it reads the whole files). Throws the first damage found.
  /// `base: false` checks the delta alone (its base, the embedded catalogue, is checked on
  /// its own).
  public func verify(base: Bool = true) throws {
    if base, case .mapped(let books) = storage { try books.verify() }
    try delta?.verify()
  }

  /// The JSON the detail endpoint gives for a book (no filters), nil when there is none.
  public func bookJSON(id: Int) -> Data? {
    if let delta, let json = Self.json(id: id, in: delta) { return json }
    switch storage {
    case .memory(let books): return Self.json(id: id, in: books)
    case .mapped(let books): return Self.json(id: id, in: books)
    }
  }

  private static func json(id: Int, in books: some BookColumns) -> Data? {
    guard let position = books.position(of: id),
      let record = try? books.record(at: Int(position))
    else { return nil }
    return Data(record.json)
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
