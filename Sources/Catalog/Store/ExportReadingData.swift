import Foundation
import GRDB

/// The reading positions and bookmarks of the favourites, read in the export's order (oldest
/// favourite first) beside the favourites themselves: one pass over each table, whatever the
/// number of favourites, and only the current favourite's rows in memory.
struct ExportReadingData {
  private let positions: RowCursor
  private let bookmarks: RowCursor
  /// The next position not yet written: its favourite's (added_at, id) and its JSON.
  private var nextPosition: ((Int64, Int), StoreJSON)?
  /// The next bookmark not yet written, likewise.
  private var nextBookmark: ((Int64, Int), StoreJSON)?

  init(_ db: Database) throws {
    positions = try Row.fetchCursor(
      db,
      sql: """
        SELECT f.added_at AS favorite_added_at, f.id AS favorite_id, p.line, p.byte_offset,
          p.quote, p.updated_at
        FROM favorite f JOIN reading_position p ON p.id = f.id
        ORDER BY f.added_at, f.id
        """)
    bookmarks = try Row.fetchCursor(
      db,
      sql: """
        SELECT f.added_at AS favorite_added_at, f.id AS favorite_id, b.byte_offset, b.created_at,
          b.key, b.note, b.quote, b.updated_at
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

  private static func position(_ row: Row?) -> ((Int64, Int), StoreJSON)? {
    guard let row else { return nil }
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
    return ((row["favorite_added_at"], row["favorite_id"]), .object(members))
  }

  private static func bookmark(_ row: Row?) -> ((Int64, Int), StoreJSON)? {
    guard let row else { return nil }
    let members: [StoreJSON.Member] = [
      .init(key: "byte_offset", value: .number(String(row["byte_offset"] as Int))),
      .init(
        key: "created_at", value: .string(StoreTimestamp.iso8601(milliseconds: row["created_at"]))),
      .init(key: "key", value: .string(row["key"])),
      .init(key: "note", value: .string(row["note"])),
      .init(key: "quote", value: .string(row["quote"])),
      .init(
        key: "updated_at", value: .string(StoreTimestamp.iso8601(milliseconds: row["updated_at"]))),
    ]
    return ((row["favorite_added_at"], row["favorite_id"]), .object(members))
  }
}
