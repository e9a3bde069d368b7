import Foundation
import GRDB
import Testing

@testable import Catalog

/// The empty store a read builds in memory from the schema's script (no migrator, no file) is
/// the database the migrations build in a file: same tables, indexes, columns, identifiers,
/// application id and rows; and it refuses writes as a read-only file does.
@Suite struct StoreSchemaTests {
  static let schemas = [FavoritesSchema.schema, PageCache.schema]

  /// Everything a store's code can see of a database.
  private static func describe(_ reader: any DatabaseReader) throws -> [String] {
    try reader.read { db in
      var lines = try Row.fetchAll(
        db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
      ).map {
        "\($0["type"] as String? ?? "") \($0["name"] as String? ?? ""): \($0["sql"] as String? ?? "-")"
      }
      for pragma in ["application_id", "user_version", "foreign_keys"] {
        lines.append("\(pragma) = \(try Int.fetchOne(db, sql: "PRAGMA \(pragma)") ?? -1)")
      }
      let tables = try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      for table in tables {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map {
          "\($0["name"] as String? ?? "") \($0["type"] as String? ?? "") \($0["notnull"] as Int? ?? 0) \($0["dflt_value"] as String? ?? "-") \($0["pk"] as Int? ?? 0)"
        }
        lines.append("\(table) columns: \(columns.joined(separator: ", "))")
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map(\.description)
        lines.append("\(table) rows: \(rows.joined(separator: "; "))")
      }
      return lines
    }
  }

  @Test(arguments: schemas.map(\.name))
  func theEmptyStoreIsWhatTheMigrationsBuild(name: String) throws {
    let schema = try #require(Self.schemas.first { $0.name == name })
    try withScratchDirectory { directory in
      let migrated = try DatabaseQueue(path: directory.appendingPathComponent("m.sqlite").path)
      try schema.migrator().migrate(migrated)
      // A data directory that does not exist: a read finds the empty store.
      let missing = directory.appendingPathComponent("none/\(name).sqlite")
      let opened = try StoreDatabase.open(
        missing, schema: schema, busyWait: BusyWait(), readsOnly: true)
      let expected = try Self.describe(migrated)
      #expect(
        try Self.describe(opened.writer) == expected,
        "the empty store's script (Schema.emptyScript) no longer builds what the migrator does:\n\(schema.emptyScript)"
      )
      #expect(try opened.writer.read { db in try schema.migrator().hasCompletedMigrations(db) })
      #expect(!FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path))
    }
  }

  @Test func theEmptyStoreRefusesWrites() throws {
    try withScratchDirectory { directory in
      let location = StoreLocation(
        dataDirectory: directory.appendingPathComponent("fresh"),
        cacheDirectory: directory.appendingPathComponent("fresh/cache"))
      let store = try FavoritesStore(location: location, readsOnly: true)
      let book = try StoreFixtures.book(84, in: StoreFixtures.e4())
      let error = storeError { () throws(StoreError) in try store.add(book) }
      #expect(error == .notWritable(path: location.favoritesDatabase.standardizedFileURL.path))
      #expect(try store.isFavorite(84) == false)
      // Nothing was created by the read nor by the refused write.
      #expect(!FileManager.default.fileExists(atPath: location.dataDirectory.path))
    }
  }
}
