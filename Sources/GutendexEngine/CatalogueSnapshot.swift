import Foundation

/// The compact binary form of a catalogue that ships inside the package.
///
/// Summaries are dropped; every other field round-trips to the server's exact JSON. Strings that
/// repeat (names, subjects, shelves, languages, MIME types, URL templates) are stored once;
/// format URLs become templates with the book's id cut out
/// (`https://www.gutenberg.org/ebooks/\u{1}.epub3.images`), so the few patterns are shared by
/// every book; each field is its own column so zlib finds the repetitions.
public enum CatalogueSnapshot {
  static let magic = Array("GDXSNAP1".utf8)

  /// Makes a snapshot from JSON Lines (or gzip-compressed JSON Lines) of books.
  public static func make(fromJSONLines data: Data) throws -> Data {
    let bytes = data.starts(with: [0x1F, 0x8B]) ? try Zlib.gunzip(data) : Array(data)
    return try make(records: GutendexEngine.readLines(bytes))
  }

  /// Loads an engine from a snapshot.
  public static func engine(from snapshot: Data) throws -> GutendexEngine {
    let (records, columns) = try decode(snapshot)
    return try GutendexEngine(records: records, columns: columns)
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

  static func make(records: [BookRecord]) throws -> Data {
    var strings: [String: Int] = [:]
    var stringList: [[UInt8]] = []
    func intern(_ bytes: [UInt8]) -> Int {
      let key = String(decoding: bytes, as: UTF8.self)
      if let id = strings[key], stringList[id] == bytes { return id }
      stringList.append(bytes)
      strings[key] = stringList.count - 1
      return stringList.count - 1
    }
    var people: [PersonRecord: Int] = [:]
    var peopleList: [PersonRecord] = []
    var peopleNames: [Int] = []
    func person(_ record: PersonRecord) -> Int {
      if let id = people[record] { return id }
      peopleList.append(record)
      peopleNames.append(intern(Array(record.name.utf8)))
      people[record] = peopleList.count - 1
      return peopleList.count - 1
    }

    var ids = ByteSink()
    var titles = ByteSink()
    var persons = ByteSink()
    var topics = ByteSink()
    var languages = ByteSink()
    var misc = ByteSink()
    var formats = ByteSink()
    var downloads = ByteSink()
    var previousID = 0
    for record in records.sorted(by: { $0.id < $1.id }) {
      ids.varint(record.id - previousID)
      previousID = record.id
      titles.block(Array(record.title.utf8))
      for group in [record.authors, record.editors, record.translators] {
        persons.varint(group.count)
        for member in group { persons.varint(person(member)) }
      }
      for group in [record.subjects, record.bookshelves] {
        topics.varint(group.count)
        for string in group { topics.varint(intern(Array(string.utf8))) }
      }
      languages.varint(record.languages.count)
      for language in record.languages { languages.varint(intern(Array(language.utf8))) }
      misc.varint(record.copyright.map { $0 ? 1 : 0 } ?? 2)
      misc.varint(intern(Array(record.mediaType.utf8)))
      formats.varint(record.formats.count)
      for format in record.formats {
        let url = Array(format.url.utf8)
        guard !url.contains(BookRecord.idSlot) else {
          throw EngineError.badSnapshot("book \(record.id): a URL holds the byte 0x01")
        }
        formats.varint(intern(Array(format.mime.utf8)))
        formats.varint(intern(template(url, id: record.id)))
      }
      downloads.varint(record.downloadCount)
    }

    var payload = ByteSink()
    payload.varint(records.count)
    var lengths = ByteSink()
    var blob: [UInt8] = []
    for string in stringList {
      lengths.varint(string.count)
      blob.append(contentsOf: string)
    }
    payload.varint(stringList.count)
    payload.block(lengths.bytes)
    payload.block(blob)
    var peopleSink = ByteSink()
    for (member, name) in zip(peopleList, peopleNames) {
      peopleSink.varint(name)
      peopleSink.optionalSigned(member.birthYear)
      peopleSink.optionalSigned(member.deathYear)
    }
    payload.varint(peopleList.count)
    payload.block(peopleSink.bytes)
    for stream in [ids, titles, persons, topics, languages, misc, formats, downloads] {
      payload.block(stream.bytes)
    }

    var out = magic
    var size = UInt64(payload.bytes.count).littleEndian
    withUnsafeBytes(of: &size) { out.append(contentsOf: $0) }
    out.append(contentsOf: try Zlib.compress(payload.bytes))
    return Data(out)
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
