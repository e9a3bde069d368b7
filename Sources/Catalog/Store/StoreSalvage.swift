import Foundation
import GRDB

/// Copies what can still be read of a damaged store into a new one, table by table and row by
/// row (libsqlite3 has no recover API in its default build, and the schema is ours).
///
/// Each table is read in rowid order. When a row cannot be read (a damaged leaf page, an
/// overflow page of its blob), the scan skips ahead: it looks for the first rowid from which
/// SQLite can seek again, doubling the jump and then halving back, so only the rows of the
/// damaged pages are lost.
enum StoreSalvage {
  /// One table's rows: how many were read back, and how many the damaged file held (nil when
  /// no count of it can be read either).
  struct Table: Sendable, Equatable {
    var name: String
    var recovered: Int
    var held: Int?
  }

  /// A failure writing the new file (not a damaged page of the old one): it ends the repair.
  private struct TargetFailure: Error {
    var error: any Error
  }

  /// Whether a row read back is whole, for the tables where a row that reads can still be cut:
  /// a favourite's snapshot whose overflow pages lay past the end of a file cut short reads
  /// back as its first bytes and then zeros, which no listing could show (every one failed on
  /// it). Such a row is not recovered.
  private static func isWhole(_ table: String, _ columns: [String], _ values: [DatabaseValue])
    -> Bool
  {
    guard table == "favorite", let index = columns.firstIndex(of: "raw_json") else { return true }
    guard let bytes = Data.fromDatabaseValue(values[index]) else { return false }
    if case .object? = try? StoreJSON.parse([UInt8](bytes)) { return true }
    return false
  }

  /// Copies every table of the new store (`target`, just migrated) from `source`, the damaged
  /// file opened to read only (see ``StoreDatabase/readOnlyReader(_:schema:salvaging:)``); the
  /// columns both have are copied.
  static func copy(from source: Database, into target: Database) throws -> [Table] {
    let names = try String.fetchAll(
      target,
      sql: """
        SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
        AND name != 'grdb_migrations' ORDER BY rootpage
        """)
    var tables: [Table] = []
    for name in names {
      do {
        tables.append(try copyTable(name, from: source, into: target))
      } catch let failure as TargetFailure {
        throw failure.error
      }
    }
    return tables
  }

  private static func copyTable(_ name: String, from source: Database, into target: Database)
    throws -> Table
  {
    let wanted = try target.columns(in: name).map(\.name)
    guard let present = try? source.columns(in: name).map(\.name) else {
      // The old file's schema cannot be read (or it has no such table): nothing to copy.
      let exists = try? source.tableExists(name)
      return Table(name: name, recovered: 0, held: exists == false ? 0 : nil)
    }
    let columns = wanted.filter(present.contains)
    guard !columns.isEmpty else { return Table(name: name, recovered: 0, held: 0) }
    let list = columns.map { $0.quotedDatabaseIdentifier }.joined(separator: ", ")
    let table = name.quotedDatabaseIdentifier
    let select = "SELECT rowid, \(list) FROM \(table) WHERE rowid > ? ORDER BY rowid"
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    let insert: Statement
    do {
      // OR IGNORE: a row that breaks a constraint (a NOT NULL column read back as NULL) is
      // left out rather than ending the copy.
      insert = try target.makeStatement(
        sql: "INSERT OR IGNORE INTO \(table) (\(list)) VALUES (\(marks))")
    } catch {
      throw TargetFailure(error: error)
    }
    var after = Int64.min
    var recovered = 0
    // Each restart moves past at least one rowid; the cap bounds a file damaged everywhere.
    for _ in 0..<100_000 {
      do {
        let rows = try Row.fetchCursor(source, sql: select, arguments: [after])
        while let row = try rows.next() {
          let rowid: Int64 = row[0]
          // Out of order: a page of zeros (a file cut short reads as one) parsed as rows.
          guard rowid > after else { throw DatabaseError(resultCode: .SQLITE_CORRUPT) }
          after = rowid
          let values = (1...columns.count).map { row[$0] as DatabaseValue }
          guard isWhole(name, columns, values) else { continue }
          do {
            try insert.execute(arguments: StatementArguments(values))
          } catch {
            throw TargetFailure(error: error)
          }
          recovered += target.changesCount
        }
        break
      } catch is DatabaseError {
        // A damaged page of the old file: go on from the next rowid that reads.
        guard let next = nextReadable(table, after: after, source) else { break }
        after = next
      }
    }
    return Table(name: name, recovered: recovered, held: held(name, source, recovered))
  }

  /// What a seek to the first rowid after `rowid` gives.
  private enum Probe {
    case row(Int64)
    case end
    case fails
  }

  private static func probe(_ table: String, after rowid: Int64, _ source: Database) -> Probe {
    do {
      let next = try Int64.fetchOne(
        source, sql: "SELECT rowid FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT 1",
        arguments: [rowid])
      guard let next else { return .end }
      // Out of order: a page of zeros (a file cut short reads as one) parsed as a row.
      return next > rowid ? .row(next) : .fails
    } catch {
      return .fails
    }
  }

  /// The rowid to go on after, past the damage met after `after`; nil when nothing further
  /// can be read.
  private static func nextReadable(_ table: String, after: Int64, _ source: Database) -> Int64? {
    switch probe(table, after: after, source) {
    // The next row's rowid reads but its columns do not (an overflow page): skip that row.
    case .row(let rowid): return rowid
    case .end: return nil
    case .fails: break
    }
    // Jump ahead, doubling, until a seek succeeds; then halve back to the first rowid after
    // which one does, so the readable rows just past the damaged page are kept.
    var failing = after
    var step: Int64 = 1
    var working: Int64
    while true {
      let (jump, overflow) = after.addingReportingOverflow(step)
      if overflow { return nil }
      if case .fails = probe(table, after: jump, source) {
        failing = jump
        let (doubled, tooFar) = step.multipliedReportingOverflow(by: 2)
        if tooFar { return nil }
        step = doubled
      } else {
        working = jump
        break
      }
    }
    while failing < working - 1 {
      // The floor of the mean, without overflow at either end of Int64.
      let middle = (failing & working) + ((failing ^ working) >> 1)
      if case .fails = probe(table, after: middle, source) {
        failing = middle
      } else {
        working = middle
      }
    }
    return working
  }

  /// How many rows the damaged file held: the largest count that any of the table's b-trees
  /// (the table's own, each index's) still gives, and never fewer than were read back.
  private static func held(_ name: String, _ source: Database, _ recovered: Int) -> Int? {
    let table = name.quotedDatabaseIdentifier
    var counts = [
      try? Int.fetchOne(source, sql: "SELECT count(*) FROM \(table) NOT INDEXED")
    ]
    let indexes =
      (try? String.fetchAll(
        source, sql: "SELECT name FROM pragma_index_list(?)", arguments: [name]))
      ?? []
    for index in indexes {
      counts.append(
        try? Int.fetchOne(
          source,
          sql: "SELECT count(*) FROM \(table) INDEXED BY \(index.quotedDatabaseIdentifier)"))
    }
    guard let most = counts.compactMap({ $0 ?? nil }).max() else { return nil }
    return max(most, recovered)
  }
}
