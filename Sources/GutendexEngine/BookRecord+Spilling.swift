extension BookRecord {
  /// Every field, strings inline, as ``ByteSink`` codes them: what ``StreamedIndex`` keeps of a
  /// book on disk until the index is written (``init(spilled:)`` reads it back exactly).
  var spilled: [UInt8] {
    var sink = ByteSink()
    sink.varint(id)
    sink.block(Array(title.utf8))
    for group in [authors, editors, translators] {
      sink.varint(group.count)
      for person in group {
        sink.block(Array(person.name.utf8))
        sink.optionalSigned(person.birthYear)
        sink.optionalSigned(person.deathYear)
      }
    }
    for group in [summaries, subjects, bookshelves, languages] {
      sink.varint(group.count)
      for string in group { sink.block(Array(string.utf8)) }
    }
    sink.varint(copyright.map { $0 ? 1 : 0 } ?? 2)
    sink.block(Array(mediaType.utf8))
    sink.varint(formats.count)
    for format in formats {
      sink.block(Array(format.mime.utf8))
      sink.block(Array(format.url.utf8))
      sink.varint(format.hasIDSlots ? 1 : 0)
    }
    sink.varint(downloadCount)
    return sink.bytes
  }

  /// The book ``spilled`` wrote.
  init(spilled bytes: [UInt8]) throws(EngineError) {
    var source = ByteSource(bytes)
    func string() throws(EngineError) -> String {
      String(decoding: bytes[try source.block()], as: UTF8.self)
    }
    func strings() throws(EngineError) -> [String] {
      var out: [String] = []
      for _ in 0..<(try source.index(below: bytes.count + 1)) { out.append(try string()) }
      return out
    }
    func people() throws(EngineError) -> [PersonRecord] {
      var out: [PersonRecord] = []
      for _ in 0..<(try source.index(below: bytes.count + 1)) {
        out.append(
          PersonRecord(
            name: try string(), birthYear: try source.optionalSigned(),
            deathYear: try source.optionalSigned()))
      }
      return out
    }
    let id = try source.varint()
    let title = try string()
    let authors = try people()
    let editors = try people()
    let translators = try people()
    let summaries = try strings()
    let subjects = try strings()
    let bookshelves = try strings()
    let languages = try strings()
    let copyright = try source.index(below: 3)
    let mediaType = try string()
    var formats: [FormatEntry] = []
    for _ in 0..<(try source.index(below: bytes.count + 1)) {
      formats.append(
        FormatEntry(mime: try string(), url: try string(), hasIDSlots: try source.varint() == 1))
    }
    self.init(
      id: id, title: title, authors: authors, summaries: summaries, editors: editors,
      translators: translators, subjects: subjects, bookshelves: bookshelves,
      languages: languages, copyright: copyright == 2 ? nil : copyright == 1, mediaType: mediaType,
      formats: formats, downloadCount: try source.varint())
  }
}
