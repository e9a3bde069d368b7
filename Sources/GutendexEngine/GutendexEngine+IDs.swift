import Foundation

extension GutendexEngine {
  /// Whether the engine holds book `id` (in the base or the delta): two binary searches, no
  /// list of ids built.
  public func holds(_ id: Int) -> Bool {
    if let delta, delta.position(of: id) != nil { return true }
    return baseHolds(id)
  }

  /// The highest id the engine holds, nil when it holds none.
  public var highestID: Int? {
    let base: Int? =
      switch storage {
      case .memory(let books): books.bookCount > 0 ? books.id(at: books.bookCount - 1) : nil
      case .mapped(let books): books.bookCount > 0 ? books.id(at: books.bookCount - 1) : nil
      }
    let fromDelta = delta.flatMap { $0.bookCount > 0 ? $0.id(at: $0.bookCount - 1) : nil }
    return [base, fromDelta].compactMap { $0 }.max()
  }

  /// The ids of every book, ascending, one at a time (the base's and the delta's merged as they
  /// are read: nothing is listed in memory).
  func idCursor() -> BookIDCursor {
    BookIDCursor(engine: self)
  }

  /// Calls `body` with the id of every book, ascending.
  public func forEachBookID(_ body: (Int) throws -> Void) rethrows {
    var cursor = idCursor()
    while let id = cursor.next() { try body(id) }
  }

  /// The book with `id` as the engine holds it (the delta's copy first), nil when it has none.
  func record(id: Int) throws(EngineError) -> BookRecord? {
    if let delta, let position = delta.position(of: id) {
      return try delta.record(at: Int(position))
    }
    switch storage {
    case .memory(let books):
      return books.position(of: id).map { books.records[Int($0)] }
    case .mapped(let books):
      guard let position = books.position(of: id) else { return nil }
      return try books.record(at: Int(position))
    }
  }

  /// Calls `body` with every book of the base, then every book of the delta (`fromDelta`),
  /// each decoded as it is read (nothing held but the layer's string table): for writing
  /// another index from these, where a delta copy supersedes the base's.
  func forEachLayeredRecord(_ body: (_ record: BookRecord, _ fromDelta: Bool) throws -> Void)
    throws
  {
    switch storage {
    case .memory(let books): for record in books.records { try body(record, false) }
    case .mapped(let books): try books.forEachRecord { try body($0, false) }
    }
    try delta?.forEachRecord { try body($0, true) }
  }
}
