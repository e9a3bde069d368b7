extension BookRecord {
  /// Writes the book exactly as the server's serializer does (field order and spelling).
  func write(to json: inout JSONWriter) {
    json.raw(#"{"id":"#)
    json.int(id)
    json.raw(#","title":"#)
    json.string(title)
    json.raw(#","authors":"#)
    Self.write(authors, to: &json)
    json.raw(#","summaries":"#)
    Self.write(summaries, to: &json)
    json.raw(#","editors":"#)
    Self.write(editors, to: &json)
    json.raw(#","translators":"#)
    Self.write(translators, to: &json)
    json.raw(#","subjects":"#)
    Self.write(subjects, to: &json)
    json.raw(#","bookshelves":"#)
    Self.write(bookshelves, to: &json)
    json.raw(#","languages":"#)
    Self.write(languages, to: &json)
    json.raw(#","copyright":"#)
    switch copyright {
    case true?: json.raw("true")
    case false?: json.raw("false")
    case nil: json.raw("null")
    }
    json.raw(#","media_type":"#)
    json.string(mediaType)
    json.raw(#","formats":{"#)
    for (offset, format) in formats.enumerated() {
      if offset > 0 { json.raw(",") }
      json.string(format.mime)
      json.raw(":")
      json.string(format.url, slot: format.hasIDSlots ? id : nil)
    }
    json.raw(#"},"download_count":"#)
    json.int(downloadCount)
    json.raw("}")
  }

  /// The book's JSON bytes.
  var json: [UInt8] {
    var writer = JSONWriter(capacity: 1024)
    write(to: &writer)
    return writer.bytes
  }

  private static func write(_ strings: [String], to json: inout JSONWriter) {
    json.raw("[")
    for (offset, string) in strings.enumerated() {
      if offset > 0 { json.raw(",") }
      json.string(string)
    }
    json.raw("]")
  }

  private static func write(_ people: [PersonRecord], to json: inout JSONWriter) {
    json.raw("[")
    for (offset, person) in people.enumerated() {
      if offset > 0 { json.raw(",") }
      json.raw(#"{"name":"#)
      json.string(person.name)
      json.raw(#","birth_year":"#)
      json.optionalInt(person.birthYear)
      json.raw(#","death_year":"#)
      json.optionalInt(person.deathYear)
      json.raw("}")
    }
    json.raw("]")
  }
}
