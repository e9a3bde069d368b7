import Foundation
import GRDB

/// SQL run on a store file from outside the program, as another tool would: to look at what a
/// command kept, or to change it behind the program's back.
public enum StoreRows {
  /// The rows `sql` selects in the SQLite file at `path`, each column as text (nil for NULL, a
  /// blob in hexadecimal).
  public static func fetch(_ path: String, _ sql: String) throws -> [[String: String?]] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
      try Row.fetchAll(db, sql: sql).map { row in
        var values: [String: String?] = [:]
        for (column, value) in row {
          switch value.storage {
          case .null: values[column] = String?.none
          case .int64(let number): values[column] = String(number)
          case .double(let number): values[column] = String(number)
          case .string(let text): values[column] = text
          case .blob(let data): values[column] = data.map { String(format: "%02x", $0) }.joined()
          }
        }
        return values
      }
    }
  }

  /// Runs `sql` (statements that change the file) in one transaction.
  public static func execute(_ path: String, _ sql: String) throws {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    try queue.write { db in try db.execute(sql: sql) }
  }
}
