import Gutendex

extension BookRecord {
  /// How the engine reads books: strict JSON, but lone surrogate escapes (which Python's `json`
  /// keeps, and the catalogue has) and invalid UTF-8 become U+FFFD, as the server shows them.
  static let jsonOptions = JSONParser.Options(replacesInvalidUnicode: true)

  /// Reads one book object in any era's shape (missing keys take the server's defaults).
  ///
  /// Returns nil for a book the server would hide: one whose `title` or `download_count` is
  /// null.
  static func read(from reader: inout JSONParser) throws(JSONParseError) -> BookRecord? {
    var id: Int?
    var title: String?
    var downloadCount: Int?
    var book = BookRecord(
      id: 0, title: "", authors: [], summaries: [], editors: [], translators: [], subjects: [],
      bookshelves: [], languages: [], copyright: nil, mediaType: "Text", formats: [],
      downloadCount: 0)
    try reader.readObject { key, reader throws(JSONParseError) in
      switch key {
      case "id": id = try reader.readInt()
      case "title": title = reader.readNull() ? nil : try reader.readString()
      case "authors": book.authors = try readPeople(&reader)
      case "summaries": book.summaries = try readStrings(&reader)
      case "editors": book.editors = try readPeople(&reader)
      case "translators": book.translators = try readPeople(&reader)
      case "subjects": book.subjects = try readStrings(&reader)
      case "bookshelves": book.bookshelves = try readStrings(&reader)
      case "languages": book.languages = try readStrings(&reader)
      case "copyright": book.copyright = reader.readNull() ? nil : try reader.readBool()
      case "media_type":
        book.mediaType = reader.readNull() ? "Text" : try reader.readString()
      case "formats":
        var formats: [FormatEntry] = []
        try reader.readObject { mime, reader throws(JSONParseError) in
          if reader.readNull() { return }
          formats.append(FormatEntry(mime: mime, url: try reader.readString(), hasIDSlots: false))
        }
        book.formats = formats
      case "download_count": downloadCount = try reader.readOptionalInt()
      default: try reader.skipValue()
      }
    }
    guard let id else {
      throw JSONParseError(offset: reader.position, reason: "book without an id")
    }
    guard let title, let downloadCount else { return nil }
    book.id = id
    book.title = title
    book.downloadCount = downloadCount
    return book
  }

  private static func readStrings(_ reader: inout JSONParser) throws(JSONParseError)
    -> [String]
  {
    if reader.readNull() { return [] }
    var strings: [String] = []
    try reader.readArray { reader throws(JSONParseError) in
      strings.append(try reader.readString())
    }
    return strings
  }

  private static func readPeople(_ reader: inout JSONParser) throws(JSONParseError)
    -> [PersonRecord]
  {
    if reader.readNull() { return [] }
    var people: [PersonRecord] = []
    try reader.readArray { reader throws(JSONParseError) in
      var person = PersonRecord(name: "", birthYear: nil, deathYear: nil)
      try reader.readObject { key, reader throws(JSONParseError) in
        switch key {
        case "name": person.name = reader.readNull() ? "" : try reader.readString()
        case "birth_year": person.birthYear = try reader.readOptionalInt()
        case "death_year": person.deathYear = try reader.readOptionalInt()
        default: try reader.skipValue()
        }
      }
      people.append(person)
    }
    return people
  }
}
