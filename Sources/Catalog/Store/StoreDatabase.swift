import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens the store's SQLite files without ever damaging what is already there.
///
/// Before SQLite touches a file, its header is checked, so a file that is not SQLite, or is
/// another program's database, is refused and left byte-for-byte untouched (opening a
/// `DatabasePool` would otherwise switch it to WAL mode, which writes to it). A new database is
/// built and migrated under a temporary name and then linked into place, so the final path never
/// holds a half-initialised file, even when two processes create it at the same moment.
enum StoreDatabase {
  /// What distinguishes one kind of store file from another.
  struct Schema: Sendable {
    /// Written to the SQLite header (`PRAGMA application_id`) by the first migration.
    var applicationID: UInt32
    /// For labels: `favorites`, `pages`.
    var name: String
    /// `PRAGMA synchronous = FULL`: a commit survives power loss, not only a crash.
    var durable: Bool
    /// The migrations in order: an identifier (GRDB's, kept in `grdb_migrations`) and the SQL
    /// it runs. Plain SQL, so that an empty store can be built by running it all at once.
    var steps: [(identifier: String, sql: String)]

    /// The schema's migrator: each step a GRDB migration.
    func migrator() -> DatabaseMigrator {
      var migrator = DatabaseMigrator()
      for step in steps {
        let sql = step.sql
        migrator.registerMigration(step.identifier) { db in try db.execute(sql: sql) }
      }
      return migrator
    }

    /// What the migrator leaves in an empty file, as one script: every step's SQL, then the
    /// steps recorded as GRDB records them (StoreSchemaTests compares the two databases).
    var emptyScript: String {
      steps.map { $0.sql.hasSuffix(";") ? $0.sql : $0.sql + ";" }.joined(separator: "\n")
        + "\nCREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);\n"
        + steps.map { "INSERT INTO grdb_migrations VALUES ('\($0.identifier)');" }
        .joined(separator: "\n")
    }
  }

  /// How long a writer waits for another connection or process to finish its transaction.
  static let busyTimeout: TimeInterval = 30

  /// What ``open(_:schema:)`` opened.
  struct Opened {
    /// The connection(s) to the file.
    var writer: any DatabaseWriter
    /// True when the file or its directory cannot be written: opened to read only.
    var readOnly: Bool
  }

  /// Opens (creating and migrating as needed) the database at `url`; when the file or its
  /// directory cannot be written, opens it to read only, so what writes nothing still works.
  ///
  /// With `readsOnly` (a command that only reads) the file is opened to read only even when it
  /// could be written, so the command writes nothing (no WAL re-created, no fsync, no scratch
  /// table) and never waits for another process's write transaction; nothing is created
  /// either. A file that needs a migration is still opened for writing.
  static func open(_ url: URL, schema: Schema, busyWait: BusyWait, readsOnly: Bool = false)
    throws(StoreError) -> Opened
  {
    let url = url.standardizedFileURL
    let path = url.path
    let directory = url.deletingLastPathComponent()
    if readsOnly, !isDirectory(directory.path) {
      // No data directory yet: nothing to read, and a read creates nothing; but a file where
      // a directory should be is reported, as creating it would be.
      var ancestor = directory.deletingLastPathComponent()
      while !exists(ancestor.path), ancestor.path != "/" {
        ancestor = ancestor.deletingLastPathComponent()
      }
      if !isDirectory(ancestor.path) { throw .notWritable(path: ancestor.path) }
      return Opened(
        writer: try emptyReadOnly(path: path, schema: schema, busyWait: busyWait), readOnly: false)
    }
    try createDirectory(directory)
    let directoryWritable = access(directory.path, W_OK) == 0
    if !exists(path) {
      // Nothing to read, and nowhere (or no need) to create it: an empty store.
      guard directoryWritable, !readsOnly else {
        return Opened(
          writer: try emptyReadOnly(path: path, schema: schema, busyWait: busyWait),
          readOnly: !directoryWritable)
      }
      try createFresh(at: url, schema: schema, busyWait: busyWait)
    }
    try checkExisting(path, schema: schema)
    let writable = directoryWritable && access(path, W_OK) == 0
    if !writable {
      return Opened(
        writer: try openReadOnly(path: path, schema: schema, busyWait: busyWait), readOnly: true)
    }
    if readsOnly {
      do {
        return Opened(
          writer: try openReadOnly(path: path, schema: schema, busyWait: busyWait),
          readOnly: false)
      } catch .notWritable {
        // An older file whose migration must be written first: opened as a writer below.
      }
    }
    try checkSound(path, schema: schema, busyWait: busyWait)
    return Opened(writer: try openPool(url, schema: schema, busyWait: busyWait), readOnly: false)
  }

  /// Opens (migrating as needed) the writable database at `url`.
  static func openPool(_ url: URL, schema: Schema, busyWait: BusyWait) throws(StoreError)
    -> DatabasePool
  {
    let path = url.path
    do {
      let pool = try DatabasePool(
        path: path, configuration: configuration(schema, busyWait: busyWait))
      try checkOwnership(pool, schema: schema, path: path)
      try schema.migrator().migrate(pool)
      return pool
    } catch {
      throw mapError(error, path: path)
    }
  }

  /// The header check can be stale while another connection's first transaction is still
  /// only in the WAL; SQLite itself sees the current application id and tables.
  private static func checkOwnership(
    _ reader: any DatabaseReader, schema: Schema, path: String
  ) throws {
    let foreign = try reader.read { db in
      let id = try Int64.fetchOne(db, sql: "PRAGMA application_id") ?? 0
      if UInt32(truncatingIfNeeded: id) == schema.applicationID { return false }
      if id != 0 { return true }
      return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") != 0
    }
    if foreign { throw StoreError.corrupt(path: path) }
  }

  /// Refuses a damaged file before a pool opens it: opening a pool writes (GRDB creates and
  /// drops a scratch table when the WAL is empty, its issue 102, and the next checkpoint puts
  /// that into the file), so a damaged file would no longer be byte for byte as it was.
  /// `PRAGMA quick_check` runs on a read-only connection: through the WAL when a writer left
  /// one, else on the file opened immutable (a read-only connection cannot open a WAL database
  /// with no WAL); damage seen immutable is checked again through a WAL written meanwhile.
  private static func checkSound(_ path: String, schema: Schema, busyWait: BusyWait)
    throws(StoreError)
  {
    func quickCheck(immutable: Bool) throws(StoreError) -> Bool {
      var configuration = configuration(schema, busyWait: busyWait)
      configuration.readonly = true
      do {
        let queue = try DatabaseQueue(
          path: immutable ? immutableURI(path) : path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
          == ["ok"]
      } catch {
        let mapped = mapError(error, path: path)
        if case .corrupt = mapped { return false }
        throw mapped
      }
    }
    let throughWAL = walSize(path) > 0
    if try quickCheck(immutable: !throughWAL) { return }
    if !throughWAL, walSize(path) > 0, try quickCheck(immutable: false) { return }
    throw .corrupt(path: path)
  }

  /// A `file:` URI opening `path` immutable: SQLite takes no lock and writes nothing.
  private static func immutableURI(_ path: String) -> String {
    // SQLite reads `file:` URIs (Debian's and Apple's builds enable SQLITE_USE_URI).
    var components = URLComponents()
    components.scheme = "file"
    components.path = path
    components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
    return components.string ?? path
  }

  /// The file at `path`, which this process may not write, opened to read only.
  ///
  /// SQLite reads a WAL database only where it can create the `-shm` file, unless the file is
  /// opened as immutable; so a file closed cleanly (no WAL left) is opened immutable, and one
  /// whose WAL is still there (its last writer was killed) is read through that WAL.
  private static func openReadOnly(path: String, schema: Schema, busyWait: BusyWait)
    throws(StoreError)
    -> DatabaseQueue
  {
    var configuration = configuration(schema, busyWait: busyWait)
    configuration.readonly = true
    do {
      let queue = try DatabaseQueue(path: readOnlyTarget(path), configuration: configuration)
      try checkOwnership(queue, schema: schema, path: path)
      // An older file needs its migration written first: that is a write it cannot have.
      let current = try queue.read { db in try schema.migrator().hasCompletedMigrations(db) }
      guard current else { throw StoreError.notWritable(path: path) }
      return queue
    } catch {
      throw mapError(error, path: path)
    }
  }

  /// An empty store that refuses writes: the state of a data directory that holds no file yet
  /// and cannot be written. Built in memory by the schema's script, then swapped for a
  /// read-only copy of itself (SQLite's deserialize), so nothing touches the disk: a read-only
  /// command on a fresh data directory builds two of these, and each was a temporary file
  /// migrated step by step (GRDB's migrator: 4 ms of a 20 ms `list`).
  private static func emptyReadOnly(path: String, schema: Schema, busyWait: BusyWait)
    throws(StoreError)
    -> DatabaseQueue
  {
    do {
      let queue = try DatabaseQueue(configuration: configuration(schema, busyWait: busyWait))
      try queue.inDatabase { db in
        try db.execute(sql: schema.emptyScript)
        try refuseWrites(db)
      }
      return queue
    } catch {
      throw mapError(error, path: path)
    }
  }

  /// Replaces `db`'s in-memory database with a copy of itself that SQLite opens read-only, so
  /// a write fails as it would on a read-only file (SQLITE_READONLY). `query_only` would not
  /// do: GRDB resets it.
  private static func refuseWrites(_ db: Database) throws {
    var size: sqlite3_int64 = 0
    guard let image = sqlite3_serialize(db.sqliteConnection, "main", &size, 0) else {
      throw DatabaseError(resultCode: .SQLITE_NOMEM, message: "cannot copy the empty store")
    }
    // With FREEONCLOSE SQLite owns the copy, and frees it even when this fails.
    let flags = UInt32(SQLITE_DESERIALIZE_READONLY) | UInt32(SQLITE_DESERIALIZE_FREEONCLOSE)
    let code = sqlite3_deserialize(db.sqliteConnection, "main", image, size, size, flags)
    guard code == SQLITE_OK else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code), message: "cannot open the empty store")
    }
  }

  /// Creates `directory` and any missing parents with mode 0700 (the user's data is private).
  static func createDirectory(_ directory: URL) throws(StoreError) {
    let path = directory.standardizedFileURL.path
    if isDirectory(path) { return }
    var prefix = ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      prefix += "/" + component
      if isDirectory(prefix) { continue }
      if mkdir(prefix, 0o700) == 0 { continue }
      let code = errno
      switch code {
      case EEXIST:
        // Created meanwhile by someone else: fine if it is a directory.
        if isDirectory(prefix) { continue }
        throw .notWritable(path: prefix)
      case EACCES, EPERM, EROFS, ENOTDIR:
        // The parent is what cannot be written to (or is not a directory).
        throw .notWritable(path: (prefix as NSString).deletingLastPathComponent)
      default:
        throw .io(path: prefix, reason: "cannot create directory: \(systemMessage(code))")
      }
    }
  }

  /// Maps GRDB and system errors to ``StoreError`` for the file at `path`.
  static func mapError(_ error: any Error, path: String) -> StoreError {
    switch error {
    case let error as StoreError:
      return error
    case let error as DatabaseError:
      switch error.resultCode {
      case .SQLITE_NOTADB, .SQLITE_CORRUPT:
        return .corrupt(path: path)
      case .SQLITE_READONLY, .SQLITE_PERM:
        return .notWritable(path: path)
      default:
        let message = error.message ?? "no message"
        return .io(path: path, reason: "SQLite error \(error.resultCode.rawValue): \(message)")
      }
    default:
      return .io(path: path, reason: String(describing: error))
    }
  }

  static func systemMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  static func configuration(_ schema: Schema, busyWait: BusyWait) -> Configuration {
    var configuration = Configuration()
    configuration.label = "gutenberg.\(schema.name)"
    // Another connection or process may hold the write lock; wait for it rather than fail,
    // but stop waiting when the user cancels (Ctrl-C): see `BusyWait`.
    configuration.busyMode = .callback(busyWait.shouldRetry)
    let durable = schema.durable
    configuration.prepareDatabase { db in
      if durable { try db.execute(sql: "PRAGMA synchronous = FULL") }
    }
    return configuration
  }

  /// Builds and migrates the database under a temporary name, then links it into place.
  private static func createFresh(at url: URL, schema: Schema, busyWait: BusyWait)
    throws(StoreError)
  {
    let path = url.path
    let temporary =
      url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).creating").path
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
    }
    try build(at: temporary, schema: schema, busyWait: busyWait, reportedAs: path) { _ in }
    // link(2) never replaces: if another process got there first, its database is used.
    if link(temporary, path) == 0 { return }
    let code = errno
    switch code {
    case EEXIST:
      return
    case EPERM, EOPNOTSUPP, EXDEV, EMLINK:
      // No hard links on this file system: rename, accepting a tiny race with other creators.
      if !exists(path), rename(temporary, path) != 0 {
        throw .io(path: path, reason: "cannot create: \(systemMessage(errno))")
      }
    case EACCES, EROFS:
      throw .notWritable(path: path)
    default:
      throw .io(path: path, reason: "cannot create: \(systemMessage(code))")
    }
  }

  /// Builds and migrates a new database at `temporary`, then runs `fill` in one transaction
  /// (nothing for a new store; the rows read back from a damaged one for `doctor --repair`).
  /// The file is built with a rollback journal (no other connection sees it under its
  /// temporary name, and new pages need no journal), so it is written about once: in WAL mode
  /// each migration's commit appended its pages to the WAL again, 130 kB of WAL for a 78 kB
  /// favourites file, which a nearly full disk refused before the command began its work. It
  /// is switched to WAL last, empty, so the file linked into place is complete on its own;
  /// failures name `reportedAs`, the path the file is meant for.
  static func build(
    at temporary: String, schema: Schema, busyWait: BusyWait, reportedAs path: String,
    fill: (Database) throws -> Void
  ) throws(StoreError) {
    do {
      let queue = try DatabaseQueue(
        path: temporary, configuration: configuration(schema, busyWait: busyWait))
      try schema.migrator().migrate(queue)
      try queue.inTransaction { db in
        try fill(db)
        return .commit
      }
      try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
      try queue.close()
    } catch {
      throw mapError(error, path: path)
    }
  }

  /// Refuses anything at `path` that SQLite should not open: a directory, a special file, a
  /// file that is not SQLite, another program's database, or a file we cannot write.
  private static func checkExisting(_ path: String, schema: Schema) throws(StoreError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw .io(path: path, reason: "cannot inspect: \(systemMessage(errno))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path: path) }
    let header: Data
    do {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      header = try handle.read(upToCount: 100) ?? Data()
    } catch {
      if access(path, R_OK) != 0 { throw .notWritable(path: path) }
      throw .io(path: path, reason: "cannot read: \(error.localizedDescription)")
    }
    if headerProblem([UInt8](header), schema: schema) != nil { throw .corrupt(path: path) }
  }

  /// Why the first 100 bytes of a file say it is not one of our `schema` stores (nil when
  /// they are ours, or empty: SQLite reads an empty file as an empty database).
  static func headerProblem(_ header: [UInt8], schema: Schema) -> String? {
    if header.isEmpty { return nil }
    guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
      return "not an SQLite file"
    }
    let applicationID = bigEndian(header[68..<72])
    let pageCount = bigEndian(header[28..<32])
    // Our first migration sets the application id in the same transaction as the first
    // table, so an id of 0 with tables means someone else's database.
    guard applicationID == schema.applicationID || (applicationID == 0 && pageCount <= 1) else {
      return "another program's SQLite database, not gutenberg's \(schema.name)"
    }
    return nil
  }

  private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// The size of `path`'s write-ahead log, 0 when there is none.
  static func walSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
  }

  /// What a read-only connection opens for `path`: the file itself when a writer left a WAL
  /// (read through it), else the file as immutable (a read-only connection cannot open a WAL
  /// database with no WAL).
  static func readOnlyTarget(_ path: String) -> String {
    walSize(path) > 0 ? path : immutableURI(path)
  }

  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  private static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }
}
