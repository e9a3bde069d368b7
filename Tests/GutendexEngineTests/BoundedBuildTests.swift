import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// The parts that let an index be written in bounded memory (issue 36): the external sorter
/// (runs on disk, merged), the delta built as pending books are read, the synced ids merged as
/// a stream, the spill's reads of bytes not yet written out.
@Suite("Bounded index building")
struct BoundedBuildTests {
  static func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("bounded-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test(arguments: [1, 7, 1000, 100_000])
  func theSorterSortsThroughRunsOnDisk(capacity: Int) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var generator = SystemRandomNumberGenerator()
    let values = (0..<20_000).map { _ in UInt64.random(in: 0...5_000, using: &generator) }
    var sorter = ExternalSorter<UInt64>(in: directory, capacity: capacity)
    defer { sorter.close() }
    for value in values { try sorter.append(value) }
    var out: [UInt64] = []
    try sorter.forEachSorted { out.append($0) }
    #expect(out == values.sorted())
    // A second pass reads the same runs again.
    var again: [UInt64] = []
    try sorter.forEachSorted { again.append($0) }
    #expect(again == out)
    // Nothing named is left: the runs' file was unlinked when created.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test func aSpillReadsWhatItHoldsWrittenOrNot() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var spill = SpillFile(in: directory, bufferSize: 10)
    defer { spill.close() }
    let bytes = (0..<95).map { UInt8($0) }
    for chunk in stride(from: 0, to: bytes.count, by: 7) {
      try spill.append(bytes[chunk..<min(bytes.count, chunk + 7)])
    }
    #expect(spill.size == bytes.count)
    #expect(spill.checksum == CatalogueSnapshot.checksum(bytes))
    var read: [UInt8] = []
    // Across the part written out and the part still buffered.
    try spill.read(at: 3, count: 90, into: &read)
    #expect(read == Array(bytes[3..<93]))
    #expect(throws: SyncFileError.self) { try spill.read(at: 90, count: 10, into: &read) }
  }

  /// A sync's pending books, read one at a time, make the delta and the counts the books read
  /// all at once made (`changes(upserting:)` for whether anything changed), and the delta
  /// answers with each book's last copy.
  @Test func theDeltaBuilderCountsAsTheBooksReadAtOnce() throws {
    let baseBytes = try CatalogueSnapshot.make(
      records: Fixture.engine().allRecords(), keepingSummaries: true)
    let first = try #require(try CatalogueSnapshot.engine(from: baseBytes).bookIDs.first)
    let held = try #require(try CatalogueSnapshot.engine(from: baseBytes).bookJSON(id: first))
    var changed = try #require(try JSONSerialization.jsonObject(with: held) as? [String: Any])
    changed["download_count"] = 1
    let changedJSON = try JSONSerialization.data(withJSONObject: changed)
    let fresh = Data(
      #"{"id":990001,"title":"New","authors":[],"subjects":[],"bookshelves":[],"languages":["en"],"copyright":false,"media_type":"Text","formats":{},"download_count":3}"#
        .utf8)
    let cases: [[Data]] = [
      [held],  // the same book again: nothing changed
      [changedJSON, held],  // changed, then changed back: nothing changed in the end
      [changedJSON],
      [fresh, fresh, changedJSON],
      [Data("not json".utf8), fresh],
    ]
    for books in cases {
      let directory = try Self.directory()
      defer { try? FileManager.default.removeItem(at: directory) }
      let basePath = directory.appendingPathComponent("base.gdxindex")
      try baseBytes.write(to: basePath)
      let index = try CatalogueSnapshot.engine(mapping: basePath.path)
      var builder = try DeltaBuilder(engine: index, in: directory)
      defer { builder.close() }
      for book in books { try builder.add(book) }
      let expected = index.upsert.changes(upserting: books)
      #expect(try builder.hasChanges() == !(expected.added.isEmpty && expected.updated.isEmpty))
      #expect(builder.added.sorted() == expected.added, "\(books.count) books")
      #expect(Set(expected.updated).isSubset(of: builder.updated))
      #expect(
        builder.skipped.count == (books.first?.starts(with: Data("not".utf8)) == true ? 1 : 0))
      let file = directory.appendingPathComponent("delta.gdxindex")
      let count = try builder.write(to: file)
      let layered = try CatalogueSnapshot.engine(mapping: basePath.path, delta: file.path)
      #expect(count == layered.bookCount)
      for id in expected.added + expected.updated {
        let last = try #require(books.last { (try? Book.decode(from: $0).id) == id })
        #expect(layered.bookJSON(id: id) == (try GutendexEngine(books: [last]).bookJSON(id: id)))
      }
    }
  }

  @Test func syncedIDsMergeAsAStream() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let files = LocalCatalogueFiles(dataDirectory: directory)
    try files.createDirectory()
    let path = files.syncedIDsURL.path
    // None yet, then a merge with repeats, then again.
    #expect(try files.addSyncedIDs { body in for id in [5, 5, 9, 12] { try body(id) } } == 3)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "[5,9,12]")
    #expect(try files.addSyncedIDs { body in for id in [1, 9, 20] { try body(id) } } == 5)
    #expect(files.readSyncedIDs() == [1, 5, 9, 12, 20])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "[1,5,9,12,20]")
    // A file in any JSON spacing and order still reads; one that is not an array of numbers
    // counts as empty, as it did when it was decoded whole.
    try Data("[ 30, 2 ,\n 7 ]".utf8).write(to: files.syncedIDsURL)
    #expect(try files.addSyncedIDs { body in try body(3) } == 4)
    #expect(files.readSyncedIDs() == [2, 3, 7, 30])
    try Data("[1,2,x]".utf8).write(to: files.syncedIDsURL)
    #expect(try files.addSyncedIDs { body in try body(3) } == 1)
    try Data("[]".utf8).write(to: files.syncedIDsURL)
    #expect(try files.addSyncedIDs { _ in } == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "[]")
  }
}
