import Foundation
import GRDB
import Gutendex
import Synchronization

/// Pages of `/books/` results kept in a SQLite file, so a query can be answered offline.
///
/// Entries are keyed by ``BookQuery/cacheKey`` and page number. Retention is enforced on
/// every write: entries older than `maxAge` (relative to the new entry's fetch time) go first,
/// then the oldest beyond `maxEntries`. Reads never write, and a stale entry reads as absent.
final class PageCache: Sendable {
  /// The SQLite file.
  let databaseURL: URL
  /// The most entries kept after a write.
  let maxEntries: Int
  /// Entries older than this are neither returned nor kept.
  let maxAge: TimeInterval
  /// The file's connection: with `writesOnDemand`, read-only until the first page is stored.
  private let connection: Mutex<any DatabaseWriter>
  /// Whether the file is to be opened for writing when the first page is stored.
  private let upgrade: Mutex<Bool>
  /// Where the cache directory is, created when the file is first written.
  private let directory: URL
  var pool: any DatabaseWriter { connection.withLock { $0 } }
  /// How this file's connections wait for another's lock, and how cancelled work stops that.
  let busyWait: BusyWait
  /// True when the file (or its directory) cannot be written: it is read as it is, and every
  /// write fails with ``StoreError/notWritable(path:)``.
  let isReadOnly: Bool

  /// Opens (creating with mode 0700 directories as needed) `<cache>/pages.sqlite`; with
  /// `readsOnly` (a command that never stores a page), only reads it and creates nothing; with
  /// `writesOnDemand` (a command that stores a page only when a server answers), reads it the
  /// same way and opens it for writing at the first page stored, so a command the server did
  /// not answer leaves it as it was, byte for byte.
  convenience init(
    location: StoreLocation, maxEntries: Int = 1000, maxAge: TimeInterval = 30 * 86_400,
    busyWait: BusyWait = BusyWait(), readsOnly: Bool = false, writesOnDemand: Bool = false
  ) throws(StoreError) {
    if !readsOnly, !writesOnDemand { try StoreDatabase.createDirectory(location.cacheDirectory) }
    try self.init(
      databaseURL: location.cacheDatabase, maxEntries: maxEntries, maxAge: maxAge,
      busyWait: busyWait, readsOnly: readsOnly, writesOnDemand: writesOnDemand && !readsOnly)
  }

  /// Opens (creating and migrating as needed) the cache database at `databaseURL`.
  init(
    databaseURL: URL, maxEntries: Int = 1000, maxAge: TimeInterval = 30 * 86_400,
    busyWait: BusyWait = BusyWait(), readsOnly: Bool = false, writesOnDemand: Bool = false
  ) throws(StoreError) {
    self.databaseURL = databaseURL.standardizedFileURL
    self.busyWait = busyWait
    self.maxEntries = max(0, maxEntries)
    self.maxAge = maxAge.isNaN ? 0 : max(0, maxAge)
    directory = self.databaseURL.deletingLastPathComponent()
    let opened = try StoreDatabase.open(
      self.databaseURL, schema: Self.schema, busyWait: busyWait,
      readsOnly: readsOnly || writesOnDemand)
    connection = Mutex(opened.writer)
    upgrade = Mutex(writesOnDemand && !opened.readOnly)
    isReadOnly = opened.readOnly
  }

  /// Closes the file's connections (SQLite checkpoints and removes the WAL when it is the
  /// last); any later call fails. Closing twice does nothing.
  func close() {
    closeLast(pool)
  }

  /// Opens the file for writing (creating it and its directory) when it was opened to read
  /// until a page is stored; the read-only connection is closed.
  private func openForWriting() throws(StoreError) {
    try upgrade.withLock { (pending) throws(StoreError) in
      guard pending else { return }
      try StoreDatabase.createDirectory(directory)
      let opened = try StoreDatabase.open(
        databaseURL, schema: Self.schema, busyWait: busyWait, readsOnly: false)
      let previous = connection.withLock { current in
        defer { current = opened.writer }
        return current
      }
      closeLast(previous)
      pending = false
    }
  }

  /// Stores `page` as the answer to `query` (at `query.page`), replacing any older copy.
  func store(_ page: BookPage, for query: BookQuery, fetchedAt: Date = Date())
    throws(StoreError)
  {
    try openForWriting()
    let body = try Self.body(of: page, path: databaseURL.path)
    let fetched = StoreTimestamp.milliseconds(fetchedAt)
    let oldestKept = fetched - StoreTimestamp.milliseconds(seconds: maxAge)
    let maxEntries = maxEntries
    try writing { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO page (key, fetched_at, body, size) VALUES (?, ?, ?, ?)",
        arguments: [Self.key(query), fetched, body, body.count])
      try db.execute(sql: "DELETE FROM page WHERE fetched_at < ?", arguments: [oldestKept])
      try db.execute(
        sql: """
          DELETE FROM page WHERE key IN (
            SELECT key FROM page ORDER BY fetched_at DESC, key DESC LIMIT -1 OFFSET ?)
          """,
        arguments: [maxEntries])
    }
  }

  /// The cached answer to `query` (at `query.page`); nil if absent, older than `maxAge` at
  /// `now`, or no longer decodable.
  func page(for query: BookQuery, now: Date = Date()) throws(StoreError) -> CachedPage? {
    let oldestValid =
      StoreTimestamp.milliseconds(now) - StoreTimestamp.milliseconds(seconds: maxAge)
    let row = try reading { db in
      try Row.fetchOne(
        db, sql: "SELECT fetched_at, body FROM page WHERE key = ?", arguments: [Self.key(query)])
    }
    guard let row else { return nil }
    let fetched: Int64 = row["fetched_at"]
    guard fetched >= oldestValid else { return nil }
    do {
      let page = try BookPage.decode(from: row["body"])
      return CachedPage(page: page, fetchedAt: StoreTimestamp.date(milliseconds: fetched))
    } catch {
      // A cache entry is disposable: one that does not decode is as good as absent, and the
      // caller will fetch and store the page again.
      return nil
    }
  }

  /// How many entries, how many body bytes, and the oldest and newest fetch times.
  func info() throws(StoreError) -> CacheInfo {
    let row = try reading { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) AS entries, COALESCE(SUM(size), 0) AS bytes,
            MIN(fetched_at) AS oldest, MAX(fetched_at) AS newest FROM page
          """)
    }
    let oldest: Int64? = row?["oldest"]
    let newest: Int64? = row?["newest"]
    return CacheInfo(
      entries: row?["entries"] ?? 0, bytes: row?["bytes"] ?? 0,
      oldest: oldest.map(StoreTimestamp.date(milliseconds:)),
      newest: newest.map(StoreTimestamp.date(milliseconds:)), path: databaseURL)
  }

  /// Removes every entry.
  func clear() throws(StoreError) {
    try openForWriting()
    try writing { db in try db.execute(sql: "DELETE FROM page") }
  }

  static func key(_ query: BookQuery) -> String {
    "\(query.cacheKey)#\(query.page)"
  }

  /// `{"count":…,"next":…,"previous":…,"results":[…]}` with each book's raw server bytes, which
  /// is what ``BookPage/decode(from:)`` reads back.
  static func body(of page: BookPage, path: String) throws(StoreError) -> Data {
    var out = Array("{\"count\":\(page.count),\"next\":".utf8)
    func optional(_ text: String?) {
      if let text { StoreJSON.writeString(text, to: &out) } else { out += Array("null".utf8) }
    }
    optional(page.next)
    out += Array(",\"previous\":".utf8)
    optional(page.previous)
    out += Array(",\"results\":[".utf8)
    for (index, book) in page.results.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      do {
        out += try FavoritesStore.snapshot(book)
      } catch {
        throw .io(path: path, reason: "cannot encode book \(book.id): \(error)")
      }
    }
    out += Array("]}".utf8)
    return Data(out)
  }

}
