import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `gutenberg doctor`'s look at a store file: read only, so a damaged file stays byte for byte
/// as it was.
extension StoreDatabase {
  /// What a read-only look at a store file found.
  enum Health: Equatable {
    /// No file yet: it is made on first use.
    case absent
    /// SQLite's integrity check passed (or the file is empty, which SQLite reads as empty).
    case sound
    /// Why the file cannot be used as it is.
    case damaged(String)
  }

  /// Examines the file at `path` through a read-only connection (the file opened immutable when
  /// no WAL is beside it): no lock taken, nothing created, nothing written.
  static func health(_ path: String, schema: Schema) throws(StoreError) -> Health {
    var info = stat()
    guard stat(path, &info) == 0 else {
      if errno == ENOENT { return .absent }
      throw .io(path: path, reason: "cannot inspect: \(systemMessage(errno))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path: path) }
    let header: [UInt8]
    do {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      header = [UInt8](try handle.read(upToCount: 100) ?? Data())
    } catch {
      throw .io(path: path, reason: "cannot read: \(error.localizedDescription)")
    }
    if let problem = headerProblem(header, schema: schema) { return .damaged(problem) }
    if header.isEmpty { return .sound }
    do {
      let reader = try readOnlyReader(path, schema: schema)
      defer { try? reader.close() }
      // integrity_check, not quick_check: it also compares each index with its table, so an
      // index page that only a sorted list would read is found too.
      let problems = try reader.read { db in
        try String.fetchAll(db, sql: "PRAGMA integrity_check(10)")
      }
      if problems == ["ok"] { return .sound }
      let more = problems.count > 1 ? " and \(problems.count - 1) more problems" : ""
      return .damaged("SQLite's integrity check: \(problems.first ?? "failed")\(more)")
    } catch {
      guard case .corrupt = mapError(error, path: path) else { throw mapError(error, path: path) }
      let message = (error as? DatabaseError)?.message ?? "damaged"
      return .damaged("SQLite: \(message)")
    }
  }

  /// A read-only connection to the file at `path`: through its WAL when a writer left one,
  /// else immutable (a read-only connection cannot open a WAL database with no WAL).
  ///
  /// With `salvaging`, the connection reads what it can of a damaged file: a file cut short
  /// claims more pages than it has, and SQLite then refuses to read even its schema;
  /// `writable_schema` (a flag of this connection, which is read-only and writes nothing)
  /// lets it read the pages that are there.
  static func readOnlyReader(_ path: String, schema: Schema, salvaging: Bool = false) throws
    -> DatabaseQueue
  {
    var configuration: Configuration
    if salvaging {
      // Not the store's own configuration, whose first statement (`synchronous`) would
      // already read the schema.
      configuration = Configuration()
      configuration.label = "gutenberg.\(schema.name).salvage"
      configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA writable_schema = ON") }
    } else {
      configuration = self.configuration(schema, busyWait: BusyWait())
    }
    configuration.readonly = true
    return try DatabaseQueue(path: readOnlyTarget(path), configuration: configuration)
  }
}
