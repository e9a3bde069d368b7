import Foundation

extension CatalogueSnapshot {
  /// Reads a snapshot back into records (summaries empty), with their string-table ids.
  static func decode(_ snapshot: Data) throws -> ([BookRecord], TableColumns) {
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

  private static func decode(payload: [UInt8]) throws(EngineError) -> (
    [BookRecord], TableColumns
  ) {
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
    var personNames: [Int32] = []
    people.reserveCapacity(max(0, personCount))
    for _ in 0..<max(0, personCount) {
      let nameID = try peopleSource.index(below: strings.count)
      personNames.append(Int32(nameID))
      let name = strings[nameID]
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

    var columns = TableColumns(tableCount: strings.count)
    var scratch: [Int32] = []
    func personList(_ source: inout ByteSource, names: Bool = false) throws(EngineError)
      -> [PersonRecord]
    {
      let count = try source.index(below: 1 << 20)
      var list: [PersonRecord] = []
      list.reserveCapacity(count)
      scratch.removeAll(keepingCapacity: true)
      for _ in 0..<count {
        let person = try source.index(below: people.count)
        list.append(people[person])
        scratch.append(personNames[person])
      }
      if names { columns.authorNames.append(scratch) }
      return list
    }
    /// Reads a list of table strings, adding their ids to `scratch`.
    func stringList(_ source: inout ByteSource) throws(EngineError) -> [String] {
      let count = try source.index(below: 1 << 20)
      var list: [String] = []
      list.reserveCapacity(count)
      for _ in 0..<count {
        let id = try source.index(below: strings.count)
        list.append(strings[id])
        scratch.append(Int32(id))
      }
      return list
    }

    var records: [BookRecord] = []
    records.reserveCapacity(bookCount)
    var id = 0
    for _ in 0..<bookCount {
      id += try ids.varint()
      let title = String(decoding: payload[try titles.block()], as: UTF8.self)
      let authors = try personList(&persons, names: true)
      let editors = try personList(&persons)
      let translators = try personList(&persons)
      scratch.removeAll(keepingCapacity: true)
      let subjects = try stringList(&topics)
      let shelves = try stringList(&topics)
      columns.topics.append(scratch)
      scratch.removeAll(keepingCapacity: true)
      let codes = try stringList(&languages)
      columns.languages.append(scratch)
      scratch.removeAll(keepingCapacity: true)
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
        let mimeID = try formats.index(below: strings.count)
        let mime = strings[mimeID]
        scratch.append(Int32(mimeID))
        let url = try formats.index(below: strings.count)
        entries.append(FormatEntry(mime: mime, url: strings[url], hasIDSlots: slotted[url]))
      }
      records.append(
        BookRecord(
          id: id, title: title, authors: authors, summaries: [], editors: editors,
          translators: translators, subjects: subjects, bookshelves: shelves, languages: codes,
          copyright: copyright, mediaType: mediaType, formats: entries,
          downloadCount: try downloads.varint()))
      columns.mimeTypes.append(scratch)
    }
    return (records, columns)
  }
}
