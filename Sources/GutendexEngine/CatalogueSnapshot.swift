import CChecksum
import Foundation
import Gutendex

/// The embedded catalogue's file format: an index that a query reads in place.
///
/// The file is memory-mapped and never inflated or parsed as a whole: a query touches only the
/// columns it filters on (case-folded titles for `search`, the topic table for `topic`, ...) and
/// the records of the 32 books it returns, so a cold process answers any query in milliseconds.
/// Summaries are dropped; every other field round-trips to the server's exact JSON. Strings that
/// repeat (names, subjects, shelves, languages, MIME types, URL templates) are stored once;
/// format URLs become templates with the book's id cut out
/// (`https://www.gutenberg.org/ebooks/\u{1}.epub3.images`). Sections are listed in
/// ``IndexSection``; each carries a CRC-32 that ``verify(_:)`` checks.
public enum CatalogueSnapshot {
  /// Makes a snapshot from JSON Lines (or gzip-compressed JSON Lines) of books.
  public static func make(fromJSONLines data: Data) throws -> Data {
    let bytes = data.starts(with: [0x1F, 0x8B]) ? try Zlib.gunzip(data) : Array(data)
    return try make(records: GutendexEngine.readLines(bytes))
  }

  /// Writes an index file at `url` of the books `books` hands to its function one at a time
  /// (JSON objects in the server's shape, in any order; a later copy of an id replaces the
  /// earlier; a book the server would hide is left out), in bounded memory: the books wait in
  /// nameless temporary files beside `url`, and the index is written as a stream. Returns how
  /// many books it holds. A failure removes what it wrote of `url`.
  public static func writeIndex(
    to url: URL, keepingSummaries: Bool = true,
    books: (_ add: (Data) throws -> Void) throws -> Void
  ) throws -> Int {
    var index = try StreamedIndex(in: url.deletingLastPathComponent())
    defer { index.close() }
    var number = 0
    try books { data in
      var reader = JSONParser(Array(data), options: BookRecord.jsonOptions)
      do {
        if let record = try BookRecord.read(from: &reader) { try index.add(record) }
      } catch let error as JSONParseError {
        throw EngineError.badJSON(book: number, offset: error.offset, reason: error.reason)
      }
      number += 1
    }
    return try index.write(to: url, keepingSummaries: keepingSummaries)
  }

  /// Loads an engine from a snapshot held in memory (a private copy is kept).
  public static func engine(from snapshot: Data) throws -> GutendexEngine {
    GutendexEngine(mapped: try MappedCatalogue(region: ByteRegion(copying: snapshot)))
  }

  /// Loads an engine over a snapshot file, mapped into memory (pages are read when touched).
  public static func engine(mapping path: String) throws -> GutendexEngine {
    GutendexEngine(mapped: try MappedCatalogue(region: ByteRegion(mapping: path)))
  }

  /// Loads an engine over a base index file with a delta index file (books synced since the
  /// base was built) merged into every answer, both mapped.
  public static func engine(mapping path: String, delta deltaPath: String) throws -> GutendexEngine
  {
    GutendexEngine(
      mapped: try MappedCatalogue(region: ByteRegion(mapping: path)),
      delta: try MappedCatalogue(region: ByteRegion(mapping: deltaPath)))
  }

  /// Checks every section's CRC-32 (reads the whole file): a damaged file throws.
  public static func verify(_ snapshot: Data) throws {
    let catalogue = try MappedCatalogue(region: ByteRegion(copying: snapshot))
    try catalogue.verifyChecksums()
  }

  /// Decompresses gzip (every member, like `gzip -dc`) or zlib data.
  public static func gunzip(_ data: Data) throws -> Data {
    Data(try Zlib.gunzip(data))
  }

  /// A book's JSON line with its `summaries` emptied, by text surgery (not by re-encoding), so
  /// it can check the engine's own encoder.
  public static func emptyingSummaries(_ line: Data) throws -> Data {
    let bytes = Array(line)
    let key = Array(#","summaries":["#.utf8)
    guard let start = bytes.firstRange(of: key)?.upperBound else { return line }
    var position = start
    var inString = false
    while position < bytes.count {
      let byte = bytes[position]
      if inString {
        if byte == 0x5C {
          position += 1
        } else if byte == 0x22 {
          inString = false
        }
      } else if byte == 0x22 {
        inString = true
      } else if byte == 0x5D {
        return Data(bytes[..<start] + bytes[position...])
      }
      position += 1
    }
    throw EngineError.badJSON(book: 0, offset: position, reason: "unterminated summaries")
  }

  /// `keepingSummaries` stores each book's summaries in its record and says so in the header's
  /// flags (the embedded snapshot leaves them out; a synced local catalogue keeps them). The
  /// index writer's temporary files go in the system's temporary directory (an index small
  /// enough to be made in memory never needs one).
  static func make(records unsorted: [BookRecord], keepingSummaries: Bool = false) throws -> Data {
    let records = unsorted.sorted { $0.id < $1.id }
    for (left, right) in zip(records, records.dropFirst()) where left.id == right.id {
      throw EngineError.duplicateID(left.id)
    }
    var writer = try IndexWriter(
      keepingSummaries: keepingSummaries, in: FileManager.default.temporaryDirectory)
    defer { writer.close() }
    for record in records { try writer.add(record) }
    var out: [UInt8] = []
    try writer.write { out.append(contentsOf: $0) }
    return Data(out)
  }

  /// zlib's CRC-32 of `bytes` (of what came before and `bytes`, `continuing` that one's), by
  /// carry-less multiplication where the processor has it (``gb_crc32``).
  static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
    gb_crc32(previous, bytes.baseAddress, bytes.count)
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
  }

  /// A record's fields the fixed columns do not hold: title, people, topics, languages,
  /// media type and formats, as varints and string-table ids.
  static func encode(
    _ record: BookRecord, strings: inout StringInterner, summaries: Bool = false
  )
    throws -> [UInt8]
  {
    var sink = ByteSink()
    sink.block(Array(record.title.utf8))
    for group in [record.authors, record.editors, record.translators] {
      sink.varint(group.count)
      for person in group {
        sink.varint(strings.id(Array(person.name.utf8)))
        sink.optionalSigned(person.birthYear)
        sink.optionalSigned(person.deathYear)
      }
    }
    for group in [record.subjects, record.bookshelves, record.languages] {
      sink.varint(group.count)
      for string in group { sink.varint(strings.id(Array(string.utf8))) }
    }
    sink.varint(strings.id(Array(record.mediaType.utf8)))
    sink.varint(record.formats.count)
    for format in record.formats {
      let url = Array(format.url.utf8)
      sink.varint(strings.id(Array(format.mime.utf8)))
      // A record read back from an index holds its template already (a re-indexed catalogue).
      if format.hasIDSlots {
        sink.varint(strings.id(url))
        continue
      }
      guard !url.contains(BookRecord.idSlot) else {
        throw EngineError.badSnapshot("book \(record.id): a URL holds the byte 0x01")
      }
      sink.varint(strings.id(template(url, id: record.id)))
    }
    // Summaries are long and unique, so they are blocks of their own, not pool strings.
    if summaries {
      sink.varint(record.summaries.count)
      for summary in record.summaries { sink.block(Array(summary.utf8)) }
    }
    return sink.bytes
  }

  /// Replaces each occurrence of the id (not inside a longer number) by the id slot byte.
  static func template(_ url: [UInt8], id: Int) -> [UInt8] {
    let digits = Array(String(id).utf8)
    var out: [UInt8] = []
    out.reserveCapacity(url.count)
    var position = 0
    func isDigit(_ index: Int) -> Bool {
      index >= 0 && index < url.count && (0x30...0x39).contains(url[index])
    }
    while position < url.count {
      if url[position...].starts(with: digits), !isDigit(position - 1),
        !isDigit(position + digits.count)
      {
        out.append(BookRecord.idSlot)
        position += digits.count
      } else {
        out.append(url[position])
        position += 1
      }
    }
    return out
  }
}
