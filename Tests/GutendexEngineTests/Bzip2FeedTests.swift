import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// The feed read through ``ParallelBzip2`` and libarchive's tar reader: a feed compressed in
/// many small blocks and several streams (as pbzip2 writes) reads as the one bzip2 itself
/// writes; a block magic inside the compressed data is not taken for a block; entries that are
/// not regular record files (links, devices, `../` and absolute names) are never read nor
/// written anywhere; a feed that is not bzip2 still goes through libarchive's own filters.
@Suite struct Bzip2FeedTests {
  static func books() throws -> [Data] {
    Array(try FeedReaderTests.fixtureBooks().prefix(60))
  }

  /// The tar of `books`' records (id order) and then `extra` entries.
  static func tar(_ books: [Data], extra: (inout TarWriter) -> Void = { _ in }) throws -> Data {
    var writer = TarWriter()
    let records = try books.map { book -> (Int, Data) in
      (try Book.decode(from: book).id, Data(try FeedGenerator.record(book).utf8))
    }.sorted { $0.0 < $1.0 }
    for (id, record) in records { writer.add("cache/epub/\(id)/pg\(id).rdf", record) }
    extra(&writer)
    return writer.finish()
  }

  @Test func manySmallBlocksInSeveralStreamsReadAsOneStream() async throws {
    let books = try Self.books()
    let expected = try await FeedReader.books(fromFeed: try FeedReaderTests.feed(books: books))
    let tar = try Self.tar(books)
    let compressed = try Bzip2Writer.compress(tar, level: 1, streams: 4)
    let read = try await FeedReader.books(fromFeed: compressed)
    #expect(read.skipped.isEmpty)
    #expect(read.books.count == books.count)
    #expect(read.books == expected.books)
  }

  @Test func aBlockMagicInsideTheCompressedDataIsNotABlock() throws {
    let books = try Self.books()
    let tar = try Self.tar(books) { writer in
      // Not a record: passed over, but its blocks' headers hold the block magic.
      writer.add("cache/epub/notes.bin", Bzip2Writer.falseMagicBytes(count: 450_000))
    }
    let compressed = try Bzip2Writer.compress(tar, level: 1)
    var offset = 0
    let archive = FeedArchive(next: {
      guard offset < compressed.count else { return nil }
      defer { offset += 65_536 }
      return compressed[offset..<min(offset + 65_536, compressed.count)]
    })
    var ids: [Int] = []
    try archive.forEachRecord(
      oversized: { Issue.record("oversized \($0)") }, { id, _ in ids.append(id) })
    let expected = try books.map { try Book.decode(from: $0).id }.sorted()
    #expect(ids == expected)
    let counts = try #require(archive.bzip2Counts)
    #expect(counts.falseCandidates >= 2, "\(counts)")
  }

  /// Links, devices, FIFOs and folders named as records are not records; entries named with
  /// `../` or an absolute path are read (as records when named so) but never written: the
  /// reader writes no file at all, so nothing appears where they point.
  @Test func entriesThatAreNotRecordFilesAreNeverReadNorWritten() async throws {
    let books = Array(try Self.books().prefix(5))
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("hostile-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let escape = directory.appendingPathComponent("escaped.rdf").path
    let secret = directory.appendingPathComponent("secret")
    try Data("not a record".utf8).write(to: secret)
    let tar = try Self.tar(books) { writer in
      writer.add("cache/epub/90001/pg90001.rdf", kind: .symbolicLink, link: secret.path)
      writer.add("cache/epub/90002/pg90002.rdf", kind: .hardLink, link: "cache/epub/84/pg84.rdf")
      writer.add("cache/epub/90003/pg90003.rdf", kind: .characterDevice)
      writer.add("cache/epub/90004/pg90004.rdf", kind: .blockDevice)
      writer.add("cache/epub/90005/pg90005.rdf", kind: .fifo)
      writer.add("cache/epub/90006/pg90006.rdf", kind: .directory)
      writer.add("../../../../../../../.." + escape, Data("<rdf:RDF/>".utf8))
      writer.add(escape, Data("<rdf:RDF/>".utf8))
      writer.add("/" + directory.appendingPathComponent("90007/pg90007.rdf").path, Data())
    }
    let before = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    let read = try await FeedReader.books(fromFeed: try Bzip2Writer.compress(tar, level: 1))
    #expect(read.books.count == books.count)
    let ids = try read.books.map { try Book.decode(from: $0).id }
    let expected = try books.map { try Book.decode(from: $0).id }.sorted()
    #expect(ids == expected)
    // The empty record at an absolute path was read as a record (and skipped as empty), not
    // written; the links and devices were not read.
    #expect(read.skipped.keys.sorted() == [90007], "\(read.skipped)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == before)
    #expect(!FileManager.default.fileExists(atPath: escape))
  }

  @Test func aFeedThatIsNotBzip2GoesThroughLibarchivesFilters() async throws {
    let books = try Self.books()
    let read = try await FeedReader.books(fromFeed: try Self.tar(books))
    #expect(read.skipped.isEmpty)
    #expect(read.books.count == books.count)
  }
}
