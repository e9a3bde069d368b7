import Foundation

extension CatalogueSnapshot {
  /// Reads a snapshot back into records (summaries empty).
  static func decode(_ snapshot: Data) throws -> [BookRecord] {
    let header = magic.count + 8
    guard snapshot.count > header, snapshot.starts(with: magic) else {
      throw EngineError.badSnapshot("not a catalogue snapshot")
    }
    var size: UInt64 = 0
    for (shift, byte) in snapshot.dropFirst(magic.count).prefix(8).enumerated() {
      size |= UInt64(byte) << (8 * UInt64(shift))
    }
    guard size < 1 << 31 else { throw EngineError.badSnapshot("implausible size \(size)") }
    let payload = try snapshot.withUnsafeBytes { raw in
      try Zlib.uncompress(UnsafeRawBufferPointer(rebasing: raw[header...]), size: Int(size))
    }
    return try decode(payload: payload)
  }

  private static func decode(payload: [UInt8]) throws(EngineError) -> [BookRecord] {
    var top = ByteSource(payload)
    let bookCount = try top.varint()
    let stringCount = try top.varint()
    guard bookCount >= 0, stringCount >= 0 else { throw .badSnapshot("negative count") }
    var lengths = ByteSource(payload, range: try top.block())
    let blob = try top.block()
    var strings: [String] = []
    var slotted: [Bool] = []
    strings.reserveCapacity(stringCount)
    slotted.reserveCapacity(stringCount)
    var offset = blob.lowerBound
    for _ in 0..<stringCount {
      let length = try lengths.varint()
      guard length >= 0, length <= blob.upperBound - offset else {
        throw .badSnapshot("string table overrun")
      }
      let bytes = payload[offset..<(offset + length)]
      strings.append(String(decoding: bytes, as: UTF8.self))
      slotted.append(bytes.contains(BookRecord.idSlot))
      offset += length
    }
    let personCount = try top.varint()
    var peopleSource = ByteSource(payload, range: try top.block())
    var people: [PersonRecord] = []
    people.reserveCapacity(max(0, personCount))
    for _ in 0..<max(0, personCount) {
      let name = strings[try peopleSource.index(below: strings.count)]
      let birth = try peopleSource.optionalSigned()
      let death = try peopleSource.optionalSigned()
      people.append(PersonRecord(name: name, birthYear: birth, deathYear: death))
    }
    var ids = ByteSource(payload, range: try top.block())
    var titles = ByteSource(payload, range: try top.block())
    var persons = ByteSource(payload, range: try top.block())
    var topics = ByteSource(payload, range: try top.block())
    var languages = ByteSource(payload, range: try top.block())
    var misc = ByteSource(payload, range: try top.block())
    var formats = ByteSource(payload, range: try top.block())
    var downloads = ByteSource(payload, range: try top.block())

    func personList(_ source: inout ByteSource) throws(EngineError) -> [PersonRecord] {
      let count = try source.index(below: 1 << 20)
      var list: [PersonRecord] = []
      list.reserveCapacity(count)
      for _ in 0..<count { list.append(people[try source.index(below: people.count)]) }
      return list
    }
    func stringList(_ source: inout ByteSource) throws(EngineError) -> [String] {
      let count = try source.index(below: 1 << 20)
      var list: [String] = []
      list.reserveCapacity(count)
      for _ in 0..<count { list.append(strings[try source.index(below: strings.count)]) }
      return list
    }

    var records: [BookRecord] = []
    records.reserveCapacity(bookCount)
    var id = 0
    for _ in 0..<bookCount {
      id += try ids.varint()
      let title = String(decoding: payload[try titles.block()], as: UTF8.self)
      let authors = try personList(&persons)
      let editors = try personList(&persons)
      let translators = try personList(&persons)
      let subjects = try stringList(&topics)
      let shelves = try stringList(&topics)
      let codes = try stringList(&languages)
      let copyright: Bool? =
        switch try misc.index(below: 3) {
        case 0: false
        case 1: true
        default: nil
        }
      let mediaType = strings[try misc.index(below: strings.count)]
      let formatCount = try formats.index(below: 1 << 20)
      var entries: [FormatEntry] = []
      entries.reserveCapacity(formatCount)
      for _ in 0..<formatCount {
        let mime = strings[try formats.index(below: strings.count)]
        let url = try formats.index(below: strings.count)
        entries.append(FormatEntry(mime: mime, url: strings[url], hasIDSlots: slotted[url]))
      }
      records.append(
        BookRecord(
          id: id, title: title, authors: authors, summaries: [], editors: editors,
          translators: translators, subjects: subjects, bookshelves: shelves, languages: codes,
          copyright: copyright, mediaType: mediaType, formats: entries,
          downloadCount: try downloads.varint()))
    }
    return records
  }
}
