import Foundation
import GRDB
import Gutendex

/// The user's favourite books in a SQLite file (WAL mode, safe for several processes at once).
///
/// Every method is synchronous and thread-safe, and every write is one transaction committed
/// (with `synchronous = FULL`) before the method returns. Dates are kept to the millisecond.
final class FavoritesStore: Sendable {
  /// The SQLite file.
  let databaseURL: URL
  let pool: any DatabaseWriter
  /// How this file's connections wait for another's lock, and how cancelled work stops that.
  let busyWait: BusyWait
  /// True when the file (or its directory) cannot be written: it is read as it is, and every
  /// write fails with ``StoreError/notWritable(path:)``.
  let isReadOnly: Bool
  /// Refuses writes to a damaged file (shared with the ``Library`` in the same file).
  let integrity: IntegrityCheck? = IntegrityCheck()

  /// Opens (creating with mode 0700 directories as needed) `<data>/favorites.sqlite`; with
  /// `readsOnly`, only reads it (see ``StoreDatabase/open(_:schema:busyWait:readsOnly:)``).
  convenience init(
    location: StoreLocation, busyWait: BusyWait = BusyWait(), readsOnly: Bool = false
  ) throws(StoreError) {
    if !readsOnly { try StoreDatabase.createDirectory(location.dataDirectory) }
    try self.init(
      databaseURL: location.favoritesDatabase, busyWait: busyWait, readsOnly: readsOnly)
  }

  /// Opens (creating and migrating as needed) the favourites database at `databaseURL`.
  init(databaseURL: URL, busyWait: BusyWait = BusyWait(), readsOnly: Bool = false)
    throws(StoreError)
  {
    self.databaseURL = databaseURL.standardizedFileURL
    self.busyWait = busyWait
    let opened = try StoreDatabase.open(
      self.databaseURL, schema: FavoritesSchema.schema, busyWait: busyWait, readsOnly: readsOnly)
    pool = opened.writer
    isReadOnly = opened.readOnly
  }

  /// Adds `book`; returns true if it was not a favourite. An existing favourite keeps its
  /// `addedAt` and gets this snapshot of the book.
  @discardableResult
  func add(_ book: Book, at date: Date = Date()) throws(StoreError) -> Bool {
    try add([book], at: date) == 1
  }

  /// Adds many books in one transaction; returns how many were not favourites before.
  @discardableResult
  func add(_ books: [Book], at date: Date = Date()) throws(StoreError) -> Int {
    let addedAt = StoreTimestamp.milliseconds(date)
    return try writing { db in
      var added = 0
      for book in books {
        if try Self.exists(book.id, db) {
          try Self.updateSnapshot(book, db)
        } else {
          try Self.insert(book, addedAt: addedAt, db)
          added += 1
        }
      }
      return added
    }
  }

  /// Adds `books` in order, in one transaction, each at its own `addedAt`; returns, for each,
  /// whether it was not a favourite before (a book listed twice was, the second time). An
  /// existing favourite keeps its `addedAt` and gets this snapshot of the book.
  func add(_ books: [(book: Book, addedAt: Date)]) throws(StoreError) -> [Bool] {
    try writing { db in
      // Each added later than the one before, by a millisecond at least: books found within
      // the same millisecond (the local catalogue finds several) keep the order they were
      // named in, rather than the id order that breaks a tie of times.
      var last = Int64.min
      return try books.map { book, addedAt in
        if try Self.exists(book.id, db) {
          try Self.updateSnapshot(book, db)
          return false
        }
        let milliseconds = max(StoreTimestamp.milliseconds(addedAt), last &+ 1)
        last = milliseconds
        try Self.insert(book, addedAt: milliseconds, db)
        return true
      }
    }
  }

  /// Removes the favourite; returns true if it was one.
  @discardableResult
  func remove(id: Int) throws(StoreError) -> Bool {
    try writing { db in
      try db.execute(sql: "DELETE FROM favorite WHERE id = ?", arguments: [id])
      return db.changesCount > 0
    }
  }

  /// Atomically flips; committed (durable) before it returns. Returns true if it is now a
  /// favourite.
  func toggle(_ book: Book, at date: Date = Date()) throws(StoreError) -> Bool {
    let addedAt = StoreTimestamp.milliseconds(date)
    // Read and write in one IMMEDIATE transaction, so a concurrent toggle from another
    // connection or process waits and then sees this one's result.
    return try writing { db in
      if try Self.exists(book.id, db) {
        try db.execute(sql: "DELETE FROM favorite WHERE id = ?", arguments: [book.id])
        return false
      }
      try Self.insert(book, addedAt: addedAt, db)
      return true
    }
  }

  /// Flips each book in turn, all in one transaction (so observers hear one change); returns
  /// the ids that are favourites afterwards. A book listed twice is flipped twice.
  func toggle(_ books: [Book], at date: Date = Date()) throws(StoreError) -> Set<Int> {
    let addedAt = StoreTimestamp.milliseconds(date)
    return try writing { db in
      var now: Set<Int> = []
      for book in books {
        if try Self.exists(book.id, db) {
          try db.execute(sql: "DELETE FROM favorite WHERE id = ?", arguments: [book.id])
          now.remove(book.id)
        } else {
          try Self.insert(book, addedAt: addedAt, db)
          now.insert(book.id)
        }
      }
      return now
    }
  }

  /// Removes each of `ids` in order, in one transaction; returns, for each, whether it was a
  /// favourite (an id named twice was not, the second time).
  func remove(each ids: [Int]) throws(StoreError) -> [Bool] {
    try writing { db in
      try ids.map { id in
        try db.execute(sql: "DELETE FROM favorite WHERE id = ?", arguments: [id])
        return db.changesCount > 0
      }
    }
  }

  /// Closes the file's connections (SQLite checkpoints and removes the WAL when it is the
  /// last); any later call fails. Closing twice does nothing.
  func close() {
    closeLast(pool)
  }

  /// The subset of `ids` that are favourites.
  func favoriteIDs(among ids: [Int]) throws(StoreError) -> Set<Int> {
    Set(try inChunks(of: ids, "id") { row throws(StoreError) in row["id"] })
  }

  /// The favourites among `ids`, in no particular order: one read, however many ids.
  func favorites(ids: [Int]) throws(StoreError) -> [Favorite] {
    let path = databaseURL.path
    return try inChunks(of: ids, Self.columns) { row throws(StoreError) in
      try Self.favorite(from: row, path: path)
    }
  }

  /// `columns` of the favourites among `ids`, each row made into a value by `make`, in one
  /// read; the ids are bound 500 at a time, well under SQLite's limit on bound parameters.
  private func inChunks<T>(
    of ids: [Int], _ columns: String, _ make: (Row) throws(StoreError) -> T
  ) throws(StoreError) -> [T] {
    let unique = Array(Set(ids))
    return try reading { db in
      var result: [T] = []
      for start in stride(from: 0, to: unique.count, by: 500) {
        let chunk = Array(unique[start..<min(start + 500, unique.count)])
        let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
        let rows = try Row.fetchCursor(
          db, sql: "SELECT \(columns) FROM favorite WHERE id IN (\(marks))",
          arguments: StatementArguments(chunk))
        while let row = try rows.next() { result.append(try make(row)) }
      }
      return result
    }
  }

  /// True if the book is a favourite.
  func isFavorite(_ id: Int) throws(StoreError) -> Bool {
    try reading { db in try Self.exists(id, db) }
  }

  /// The favourite with this id, if it is one.
  func favorite(id: Int) throws(StoreError) -> Favorite? {
    let path = databaseURL.path
    return try reading { db in
      try Row.fetchOne(
        db, sql: "SELECT \(Self.columns) FROM favorite WHERE id = ?", arguments: [id]
      ).map { row throws(StoreError) in try Self.favorite(from: row, path: path) }
    }
  }

  /// Favourites in `order`, optionally one window of them (`limit` nil means all).
  func favorites(
    order: FavoriteOrder = .newest, limit: Int? = nil, offset: Int = 0
  ) throws(StoreError) -> [Favorite] {
    let orderBy = Self.orderBy(order)
    let path = databaseURL.path
    return try reading { db in
      let rows = try Row.fetchAll(
        db,
        sql: "SELECT \(Self.columns) FROM favorite ORDER BY \(orderBy) LIMIT ? OFFSET ?",
        arguments: [limit.map { max(0, $0) } ?? -1, max(0, offset)])
      return try rows.map { row throws(StoreError) in try Self.favorite(from: row, path: path) }
    }
  }

  /// Calls `body` with the favourites in `order`, `size` at a time, from one read transaction.
  func forEachWindow(order: FavoriteOrder, size: Int, _ body: ([Favorite]) -> Void)
    throws(StoreError)
  {
    let path = databaseURL.path
    try reading { db in
      let rows = try Row.fetchCursor(
        db, sql: "SELECT \(Self.columns) FROM favorite ORDER BY \(Self.orderBy(order))")
      var window: [Favorite] = []
      window.reserveCapacity(size)
      while let row = try rows.next() {
        window.append(try Self.favorite(from: row, path: path))
        if window.count == size {
          body(window)
          window.removeAll(keepingCapacity: true)
        }
      }
      if !window.isEmpty { body(window) }
    }
  }

  static func orderBy(_ order: FavoriteOrder) -> String {
    switch order {
    case .newest: "added_at DESC, id DESC"
    case .title: "title_key = '', title_key, id"
    case .author: "author_key = '', author_key, title_key, id"
    }
  }

  /// How many favourites there are.
  func count() throws(StoreError) -> Int {
    try reading { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM favorite") ?? 0 }
  }

  /// After a refresh: update snapshots of `books` (refreshed_at = date, missing = false) and
  /// mark `missingIDs` missing (kept, not dropped).
  ///
  /// Books that are not favourites are ignored; an id both returned and listed missing counts as
  /// returned. The refresh time is recorded for ``lastRefreshed()`` even when nothing changed.
  func applyRefresh(books: [Book], missingIDs: [Int], at date: Date) throws(StoreError) {
    let refreshedAt = StoreTimestamp.milliseconds(date)
    try writing { db in
      try Self.applyRefresh(books: books, missingIDs: missingIDs, refreshedAt: refreshedAt, db)
    }
  }

  /// The writes of a refresh, in the caller's transaction.
  static func applyRefresh(
    books: [Book], missingIDs: [Int], refreshedAt: Int64, _ db: Database
  ) throws {
    for id in missingIDs {
      try db.execute(
        sql: "UPDATE favorite SET missing_on_server = 1 WHERE id = ?", arguments: [id])
    }
    for book in books {
      try updateSnapshot(book, db)
      try db.execute(
        sql: "UPDATE favorite SET refreshed_at = ?, missing_on_server = 0 WHERE id = ?",
        arguments: [refreshedAt, book.id])
    }
    try db.execute(
      sql: "INSERT OR REPLACE INTO store_meta (key, value) VALUES ('last_refresh', ?)",
      arguments: [refreshedAt])
  }

  /// When ``applyRefresh(books:missingIDs:at:)`` last ran; nil if never.
  func lastRefreshed() throws(StoreError) -> Date? {
    try reading { db in
      try Int64.fetchOne(db, sql: "SELECT value FROM store_meta WHERE key = 'last_refresh'")
        .map(StoreTimestamp.date(milliseconds:))
    }
  }

  // MARK: - Helpers shared with import and export

  static let columns = "id, added_at, refreshed_at, missing_on_server, raw_json"

  static func favorite(from row: Row, path: String) throws(StoreError) -> Favorite {
    let id: Int = row["id"]
    let book: Book
    do {
      book = try Book.decode(from: row["raw_json"])
    } catch {
      throw .io(path: path, reason: "favourite \(id) has an unreadable snapshot: \(error)")
    }
    let refreshedAt: Int64? = row["refreshed_at"]
    return Favorite(
      book: book, addedAt: StoreTimestamp.date(milliseconds: row["added_at"]),
      refreshedAt: refreshedAt.map(StoreTimestamp.date(milliseconds:)),
      missingOnServer: row["missing_on_server"])
  }

  static func exists(_ id: Int, _ db: Database) throws -> Bool {
    try Bool.fetchOne(db, sql: "SELECT 1 FROM favorite WHERE id = ?", arguments: [id]) != nil
  }

  static func insert(_ book: Book, addedAt: Int64, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO favorite (id, added_at, refreshed_at, missing_on_server, title_key,
          author_key, raw_json)
        VALUES (?, ?, NULL, 0, ?, ?, ?)
        """,
      arguments: [
        book.id, addedAt, sortKey(book.title), sortKey(book.authors.first?.name ?? ""),
        snapshot(book),
      ])
  }

  static func updateSnapshot(_ book: Book, _ db: Database) throws {
    try db.execute(
      sql: "UPDATE favorite SET title_key = ?, author_key = ?, raw_json = ? WHERE id = ?",
      arguments: [
        sortKey(book.title), sortKey(book.authors.first?.name ?? ""), snapshot(book), book.id,
      ])
  }

  /// The bytes to store: the server's own, or the encoded book if it has none or they are not
  /// a JSON object (a book made in code with bad `rawJSON`), so the file only holds valid JSON.
  static func snapshot(_ book: Book) throws -> Data {
    if case .object? = try? StoreJSON.parse([UInt8](book.rawJSON)) { return book.rawJSON }
    return try JSONEncoder().encode(book)
  }

  /// Lower-cased, accent-folded, trimmed text for `ORDER BY`.
  static func sortKey(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines)
      .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
  }
}
