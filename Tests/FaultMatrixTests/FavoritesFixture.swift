import Foundation
import Testing

@testable import TestSupport

/// A real favourites file for the damaged-store tests: the fixture books imported by the
/// binary, then one table page in its middle overwritten.
enum FavoritesFixture {
  /// Imports the 343 fixture books as favourites (a file of about 150 pages of 4 KiB) and
  /// returns their ids.
  static func importBooks(_ app: Gutenberg) async throws -> Set<Int> {
    let lines = try Fixture.data("books.jsonl").split(separator: UInt8(ascii: "\n"))
    let books = app.root.appendingPathComponent("books.json")
    try (Data("[".utf8) + Data(lines.joined(separator: Data(",".utf8))) + Data("]".utf8))
      .write(to: books)
    let imported = try await app.run(["favorites", "import", books.path])
    try #require(imported.status == 0, "\(imported)")
    let ids = Set(lines.compactMap { StoreFaultTests.id(of: $0) })
    try #require(ids.count == lines.count)
    return ids
  }

  /// Overwrites a page half-way through `file`: the first table leaf (type byte 0x0D) from the
  /// middle on, which holds favourites (the other tables are empty; the middle page itself may
  /// be an index leaf that `favorites list` never reads). Returns the bytes it held before.
  static func damageAMiddleLeaf(_ file: URL) throws -> Data {
    // No -wal is left once the last connection closed: the main file holds everything.
    let sound = try Data(contentsOf: file)
    var bytes = [UInt8](sound)
    let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
    try #require(pageSize == 4096 && bytes.count / pageSize > 40, "\(bytes.count) bytes")
    var page = bytes.count / pageSize / 2
    while page < bytes.count / pageSize - 1, bytes[page * pageSize] != 0x0D { page += 1 }
    for index in page * pageSize..<(page + 1) * pageSize { bytes[index] = 0xA5 }
    try Data(bytes).write(to: file)
    return sound
  }

  /// The fixture books imported into `app`'s favourites, then a middle leaf damaged: the file,
  /// the ids it held, and its damaged bytes.
  static func damaged(_ app: Gutenberg) async throws -> (file: URL, held: Set<Int>, bytes: Data) {
    let held = try await importBooks(app)
    let file = app.dataDirectory.appendingPathComponent("favorites.sqlite")
    _ = try damageAMiddleLeaf(file)
    return (file, held, try Data(contentsOf: file))
  }
}
