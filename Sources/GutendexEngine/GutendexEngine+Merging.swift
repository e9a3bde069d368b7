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

  /// The indexes this engine's books make with others upserted (a sync's, a bench's).
  public var upsert: CatalogueUpsert { CatalogueUpsert(engine: self) }

  /// Whether the base (not the delta) holds book `id`.
  func baseHolds(_ id: Int) -> Bool {
    switch storage {
    case .memory(let books): books.position(of: id) != nil
    case .mapped(let books): books.position(of: id) != nil
    }
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
