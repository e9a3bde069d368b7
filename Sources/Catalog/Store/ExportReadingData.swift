import Foundation
import GRDB

/// The reading positions and bookmarks of the favourites, read in the export's order (oldest
/// favourite first) beside the favourites themselves: one pass over each table, whatever the
/// number of favourites, and only the current favourite's rows in memory. The books that have
/// bookmarks or highlights but no star follow the favourites (``notesOnlyBooks(_:_:)``).
struct ExportReadingData {
  private let positions: RowCursor
  private let bookmarks: RowCursor
  /// The next position not yet written: its favourite's (added_at, id) and its JSON.
  private var nextPosition: ((Int64, Int), StoreJSON)?
  /// The next bookmark not yet written, likewise.
  private var nextBookmark: ((Int64, Int), StoreJSON)?

  /// The columns of a bookmark an export writes.
  static let bookmarkColumns =
    "b.byte_offset, b.created_at, b.key, b.note, b.quote, b.updated_at, b.end_offset, b.chapter"
  /// The columns of a reading position an export writes.
  static let positionColumns = "p.line, p.byte_offset, p.quote, p.updated_at"

  init(_ db: Database) throws {
    positions = try Row.fetchCursor(
      db,
      sql: """
        SELECT f.added_at AS favorite_added_at, f.id AS favorite_id, \(Self.positionColumns)
        FROM favorite f JOIN reading_position p ON p.id = f.id
        ORDER BY f.added_at, f.id
        """)
    bookmarks = try Row.fetchCursor(
      db,
      sql: """
        SELECT f.added_at AS favorite_added_at, f.id AS favorite_id, \(Self.bookmarkColumns)
        FROM favorite f JOIN bookmark b ON b.id = f.id
        ORDER BY f.added_at, f.id, b.byte_offset, b.created_at, b.key
        """)
    nextPosition = try Self.position(positions.next())
    nextBookmark = try Self.bookmark(bookmarks.next())
  }

  /// The `reading_position` and `bookmarks` members of the favourite (`addedAt`, `id`), if it
  /// has any; favourites must be asked for in the export's order.
  mutating func members(for id: Int, addedAt: Int64) throws -> [StoreJSON.Member] {
    let key = (addedAt, id)
    var members: [StoreJSON.Member] = []
    var marks: [StoreJSON] = []
    while let (at, value) = nextBookmark, at <= key {
      if at == key { marks.append(value) }
      nextBookmark = try Self.bookmark(bookmarks.next())
    }
    if !marks.isEmpty { members.append(.init(key: "bookmarks", value: .array(marks))) }
    while let (at, value) = nextPosition, at <= key {
      if at == key { members.append(.init(key: "reading_position", value: value)) }
      nextPosition = try Self.position(positions.next())
    }
    return members
  }

  /// How many books have bookmarks (or highlights) but are not favourites.
  static func notesOnlyCount(_ db: Database) throws -> Int {
    try Int.fetchOne(
      db,
      sql: """
        SELECT COUNT(DISTINCT b.id) FROM bookmark b
        WHERE NOT EXISTS (SELECT 1 FROM favorite f WHERE f.id = b.id)
        """) ?? 0
  }

  /// Hands `body` the entry of each book that has bookmarks but no star, by id: `book` (its id
  /// and the title the library knows it by), `bookmarks`, `"favourite": false` and its
  /// `reading_position`, keys sorted as the rest of the export. One book's rows in memory.
  static func notesOnlyBooks(_ db: Database, _ body: (StoreJSON) throws -> Void) throws {
    let books = try Row.fetchCursor(
      db,
      sql: """
        SELECT b.id,
          (SELECT d.title FROM download d WHERE d.id = b.id ORDER BY d.fetched_at DESC LIMIT 1)
            AS title
        FROM bookmark b WHERE NOT EXISTS (SELECT 1 FROM favorite f WHERE f.id = b.id)
        GROUP BY b.id ORDER BY b.id
        """)
    while let book = try books.next() {
      let id: Int = book["id"]
      var bookMembers: [StoreJSON.Member] = [.init(key: "id", value: .number(String(id)))]
      if let title: String = book["title"] {
        bookMembers.append(.init(key: "title", value: .string(title)))
      }
      let marks = try Row.fetchAll(
        db,
        sql: """
          SELECT \(bookmarkColumns) FROM bookmark b WHERE b.id = ?
          ORDER BY b.byte_offset, b.created_at, b.key
          """, arguments: [id]
      ).map(bookmarkValue)
      var members: [StoreJSON.Member] = [
        .init(key: "book", value: .object(bookMembers)),
        .init(key: "bookmarks", value: .array(marks)),
        .init(key: "favourite", value: .bool(false)),
      ]
      if let position = try Row.fetchOne(
        db, sql: "SELECT \(positionColumns) FROM reading_position p WHERE p.id = ?",
        arguments: [id])
      {
        members.append(.init(key: "reading_position", value: positionValue(position)))
      }
      try body(.object(members))
    }
  }

  private static func position(_ row: Row?) -> ((Int64, Int), StoreJSON)? {
    guard let row else { return nil }
    return ((row["favorite_added_at"], row["favorite_id"]), positionValue(row))
  }

  private static func positionValue(_ row: Row) -> StoreJSON {
    var members: [StoreJSON.Member] = []
    if let offset: Int = row["byte_offset"] {
      members.append(.init(key: "byte_offset", value: .number(String(offset))))
    }
    members.append(.init(key: "line", value: .number(String(row["line"] as Int))))
    if let quote: String = row["quote"] {
      members.append(.init(key: "quote", value: .string(quote)))
    }
    members.append(
      .init(
        key: "updated_at", value: .string(StoreTimestamp.iso8601(milliseconds: row["updated_at"])))
    )
    return .object(members)
  }

  private static func bookmark(_ row: Row?) -> ((Int64, Int), StoreJSON)? {
    guard let row else { return nil }
    return ((row["favorite_added_at"], row["favorite_id"]), bookmarkValue(row))
  }

  /// A bookmark as the export writes it, keys sorted; a highlight's `end_offset` and a known
  /// `chapter` only when there are (so a bookmark reads as before them).
  private static func bookmarkValue(_ row: Row) -> StoreJSON {
    var members: [StoreJSON.Member] = [
      .init(key: "byte_offset", value: .number(String(row["byte_offset"] as Int)))
    ]
    if let chapter: String = row["chapter"] {
      members.append(.init(key: "chapter", value: .string(chapter)))
    }
    members.append(
      .init(
        key: "created_at", value: .string(StoreTimestamp.iso8601(milliseconds: row["created_at"])))
    )
    if let end: Int = row["end_offset"] {
      members.append(.init(key: "end_offset", value: .number(String(end))))
    }
    members += [
      .init(key: "key", value: .string(row["key"])),
      .init(key: "note", value: .string(row["note"])),
      .init(key: "quote", value: .string(row["quote"])),
      .init(
        key: "updated_at", value: .string(StoreTimestamp.iso8601(milliseconds: row["updated_at"]))),
    ]
    return .object(members)
  }
}
