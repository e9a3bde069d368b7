import Foundation

/// Writes Project Gutenberg's feed (`rdf-files.tar.bz2`: `cache/epub/<id>/pg<id>.rdf` in
/// PG's published RDF/XML shape) from books as the Gutendex server serves them, with the
/// quirks Gutendex's reader has rules for, so that reading the feed must give the books back
/// exactly: subtitles written as line breaks, LCC subjects next to LCSH ones, repeated
/// subjects, shelves and people, agents without a name, illustrators (not editors), a
/// `noimages` edition before the image one of the same type, later files of a type already
/// given, a missing `dcterms:type` for some texts, the rights text, `marc520` summaries.
/// The archive is written by libarchive (bzip2 filter, ustar entries).
public enum FeedGenerator {
  /// The release date the record of book `id` gives (`dcterms:issued`), varied with the id so
  /// that a reader mixing records up is caught.
  public static func issued(for id: Int) -> String {
    let month = id % 12 + 1
    let day = id % 28 + 1
    return "2025-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
  }

  /// The RDF record of `book` (one server-shaped JSON object).
  public static func record(_ book: Data) throws -> String {
    guard let object = try JSONSerialization.jsonObject(with: book) as? [String: Any],
      let id = object["id"] as? Int
    else { throw HarnessFailure(description: "a feed book is not an object with an id") }
    let quirk = id % 4
    var out = """
      <?xml version="1.0" encoding="utf-8"?>
      <rdf:RDF xml:base="http://www.gutenberg.org/"
        xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
        xmlns:dcterms="http://purl.org/dc/terms/"
        xmlns:pgterms="http://www.gutenberg.org/2009/pgterms/"
        xmlns:dcam="http://purl.org/dc/dcam/"
        xmlns:marcrel="http://id.loc.gov/vocabulary/relators/"
        xmlns:cc="http://web.resource.org/cc/"
        xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">
        <cc:Work rdf:about="">
          <cc:license rdf:resource="https://creativecommons.org/publicdomain/zero/1.0/"/>
        </cc:Work>
        <pgterms:ebook rdf:about="ebooks/\(id)">
          <dcterms:publisher>Project Gutenberg</dcterms:publisher>
          <dcterms:license rdf:resource="license"/>
          <dcterms:issued rdf:datatype="http://www.w3.org/2001/XMLSchema#date">\(issued(for: id))</dcterms:issued>

      """
    let copyright = object["copyright"] as? Bool
    let rights =
      switch copyright {
      case false?: "Public domain in the USA."
      case true?: "Copyrighted. Read the copyright notice inside this book for details."
      case nil: "None"
      }
    out += "    <dcterms:rights>\(escape(rights))</dcterms:rights>\n"
    let people = { (key: String) -> [[String: Any]] in object[key] as? [[String: Any]] ?? [] }
    var agent = id * 10
    func person(_ tag: String, _ person: [String: Any]?) {
      agent += 1
      out += "    <\(tag)>\n      <pgterms:agent rdf:about=\"2009/agents/\(agent)\">\n"
      if let person {
        if let birth = person["birth_year"] as? Int {
          out +=
            "        <pgterms:birthdate rdf:datatype=\"http://www.w3.org/2001/XMLSchema#integer\">\(birth)</pgterms:birthdate>\n"
        }
        if let death = person["death_year"] as? Int {
          out +=
            "        <pgterms:deathdate rdf:datatype=\"http://www.w3.org/2001/XMLSchema#integer\">\(death)</pgterms:deathdate>\n"
        }
        out += "        <pgterms:name>\(escape(person["name"] as? String ?? ""))</pgterms:name>\n"
        out += "        <pgterms:webpage rdf:resource=\"https://en.wikipedia.org/wiki/X\"/>\n"
      } else {
        out += "        <pgterms:alias>Anonymous</pgterms:alias>\n"
      }
      out += "      </pgterms:agent>\n    </\(tag)>\n"
    }
    let authors = people("authors")
    for author in authors { person("dcterms:creator", author) }
    // Quirks: the first author again (stored once), and an agent with no name (dropped).
    if quirk == 1, let first = authors.first { person("dcterms:creator", first) }
    if quirk == 2 { person("dcterms:creator", nil) }
    for editor in people("editors") { person("marcrel:edt", editor) }
    if quirk == 3 { person("marcrel:ill", ["name": "Illustrator, An", "birth_year": 1850]) }
    for translator in people("translators") { person("marcrel:trl", translator) }

    out +=
      "    <dcterms:title>\(escape(subtitledTitle(object["title"] as? String ?? "")))</dcterms:title>\n"
    if quirk == 3 { out += "    <dcterms:alternative>Another Title</dcterms:alternative>\n" }
    let summaries = object["summaries"] as? [String] ?? []
    for summary in summaries.reversed() {
      out += "    <pgterms:marc520>\(escape(summary))</pgterms:marc520>\n"
    }
    if quirk == 1, let first = summaries.first {
      out += "    <pgterms:marc520>\(escape(first))</pgterms:marc520>\n"
    }
    var node = 0
    func description(_ tag: String, member: String?, value: String, datatype: String? = nil) {
      node += 1
      out += "    <\(tag)>\n      <rdf:Description rdf:nodeID=\"N\(id)x\(node)\">\n"
      if let member { out += "        <dcam:memberOf rdf:resource=\"\(escape(member))\"/>\n" }
      let type = datatype.map { " rdf:datatype=\"\($0)\"" } ?? ""
      out += "        <rdf:value\(type)>\(escape(value))</rdf:value>\n"
      out += "      </rdf:Description>\n    </\(tag)>\n"
    }
    for language in object["languages"] as? [String] ?? [] {
      description(
        "dcterms:language", member: nil, value: language,
        datatype: "http://purl.org/dc/terms/RFC4646")
    }
    let subjects = object["subjects"] as? [String] ?? []
    // Reversed: the reader sorts them.
    for subject in subjects.reversed() {
      description("dcterms:subject", member: "http://purl.org/dc/terms/LCSH", value: subject)
    }
    description("dcterms:subject", member: "http://purl.org/dc/terms/LCC", value: "PR")
    if quirk == 2, let first = subjects.first {
      description("dcterms:subject", member: "http://purl.org/dc/terms/LCSH", value: first)
    }
    let media = object["media_type"] as? String ?? "Text"
    if !(media == "Text" && quirk == 0) {
      description("dcterms:type", member: "http://purl.org/dc/terms/DCMIType", value: media)
    }
    out +=
      "    <pgterms:downloads rdf:datatype=\"http://www.w3.org/2001/XMLSchema#integer\">\(object["download_count"] as? Int ?? 0)</pgterms:downloads>\n"

    for (mime, url) in try formats(book) {
      // A `noimages` edition of the same type first: the image one replaces it in place.
      if quirk != 0, url.hasSuffix(".images") {
        file(&out, id: id, url: url.replacingOccurrences(of: ".images", with: ".noimages"), mime)
      }
      file(&out, id: id, url: url, mime, extra: quirk == 3 ? "application/zip" : nil)
      // A later file of a type already given is ignored (the first one wins).
      if quirk == 1, !url.contains("noimages") {
        file(&out, id: id, url: url + ".other", mime)
      }
    }
    let shelves = object["bookshelves"] as? [String] ?? []
    for shelf in shelves {
      description("pgterms:bookshelf", member: "2009/pgterms/Bookshelf", value: shelf)
    }
    if quirk == 3, let first = shelves.first {
      description("pgterms:bookshelf", member: "2009/pgterms/Bookshelf", value: first)
    }
    out += "  </pgterms:ebook>\n</rdf:RDF>\n"
    return out
  }

  private static func file(
    _ out: inout String, id: Int, url: String, _ mime: String, extra: String? = nil
  ) {
    out += "    <dcterms:hasFormat>\n      <pgterms:file rdf:about=\"\(escape(url))\">\n"
    out +=
      "        <dcterms:extent rdf:datatype=\"http://www.w3.org/2001/XMLSchema#integer\">1234</dcterms:extent>\n"
    for value in [mime] + (extra.map { [$0] } ?? []) {
      out += "        <dcterms:format>\n          <rdf:Description rdf:nodeID=\"F\(id)\">\n"
      out += "            <dcam:memberOf rdf:resource=\"http://purl.org/dc/terms/IMT\"/>\n"
      out +=
        "            <rdf:value rdf:datatype=\"http://purl.org/dc/terms/IMT\">\(escape(value))</rdf:value>\n"
      out += "          </rdf:Description>\n        </dcterms:format>\n"
    }
    out += "        <dcterms:isFormatOf rdf:resource=\"ebooks/\(id)\"/>\n"
    out += "      </pgterms:file>\n    </dcterms:hasFormat>\n"
  }

  /// A title as PG writes it: the first ": " as a line break, later "; " as line breaks with
  /// blanks around them (Gutendex turns them back).
  static func subtitledTitle(_ title: String) -> String {
    // Blanks next to the separators would be eaten by the reader: such titles stay on one line.
    for odd in [" :", " ;", ":  ", ";  ", "\t", "\n", "\r"] where title.contains(odd) {
      return title
    }
    guard let colon = title.range(of: ": ") else { return title }
    let rest = title[colon.upperBound...].replacingOccurrences(of: "; ", with: " \r\n\t")
    return title[..<colon.lowerBound] + "\n" + rest
  }

  /// The `formats` object's entries in the server's order (JSONSerialization loses it).
  static func formats(_ book: Data) throws -> [(String, String)] {
    guard let object = try JSONSerialization.jsonObject(with: book) as? [String: Any],
      let formats = object["formats"] as? [String: String]
    else { return [] }
    let text = String(decoding: book, as: UTF8.self)
    let start = text.range(of: #""formats":{"#)?.upperBound ?? text.startIndex
    // JSONSerialization writes "/" as "\/": either spelling.
    func position(_ key: String) -> String.Index {
      for spelling in [key, key.replacingOccurrences(of: "/", with: "\\/")] {
        if let found = text.range(of: "\"\(spelling)\":", range: start..<text.endIndex) {
          return found.lowerBound
        }
      }
      return text.endIndex
    }
    return formats.map { ($0.key, $0.value) }.sorted { position($0.0) < position($1.0) }
  }

  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\r": out += "&#13;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Writes `records` (id → RDF bytes) as `cache/epub/<id>/pg<id>.rdf` entries of a
  /// bzip2-compressed tar at `path`, in id order.
  public static func writeArchive(_ records: [(Int, Data)], to path: String) throws {
    try writeArchive(count: records.count, record: { records[$0] }, to: path)
  }

  /// Writes `count` records, the `n`th made by `record(n)` when its turn comes (in the order
  /// given), so that an archive of hundreds of thousands of records is never held whole.
  public static func writeArchive(
    count: Int, record: (Int) throws -> (Int, Data), to path: String
  ) throws {
    let writer = try FeedArchiveWriter(path: path)
    for number in 0..<count {
      let (id, bytes) = try record(number)
      try writer.add(id: id, bytes)
    }
    try writer.close()
  }

  /// The feed of `books` (server-shaped JSON objects) plus `extra` hand-written records.
  public static func writeFeed(
    books: [Data], extra: [(Int, String)] = [], to path: String
  ) throws {
    var records = try books.map { book -> (Int, Data) in
      let object = try JSONSerialization.jsonObject(with: book) as? [String: Any]
      return (object?["id"] as? Int ?? 0, Data(try record(book).utf8))
    }
    records += extra.map { ($0.0, Data($0.1.utf8)) }
    try writeArchive(records.sorted { $0.0 < $1.0 }, to: path)
  }

  /// The feed of `books` and `copies` more copies of each under new ids (copy `k` of book `n`
  /// is book `n + k × copyStride`, its file URLs renamed to match): a catalogue as large as
  /// the real one several times over, with its variety, written as each record comes. `books`
  /// must be in id order, every id below ``copyStride``.
  public static func writeFeed(books: [Data], copies: Int, to path: String) throws {
    try writeArchive(
      count: books.count * (copies + 1),
      record: { number in
        let copy = number / books.count
        let book = try Self.copy(books[number % books.count], number: copy)
        let object = try JSONSerialization.jsonObject(with: book) as? [String: Any]
        return (object?["id"] as? Int ?? 0, Data(try record(book).utf8))
      }, to: path)
  }

  /// The distance between the ids of a book and its copies in ``writeFeed(books:copies:to:)``.
  public static let copyStride = 1_000_000

  /// Copy `number` of `book` (0 is the book itself): its id moved by `number` × ``copyStride``,
  /// its file URLs naming the new id.
  public static func copy(_ book: Data, number: Int) throws -> Data {
    guard number > 0 else { return book }
    guard var object = try JSONSerialization.jsonObject(with: book) as? [String: Any],
      let id = object["id"] as? Int
    else { throw HarnessFailure(description: "a feed book is not an object with an id") }
    let fresh = id + number * copyStride
    object["id"] = fresh
    if let formats = object["formats"] as? [String: String] {
      object["formats"] = formats.mapValues {
        $0.replacingOccurrences(of: "/\(id)", with: "/\(fresh)")
          .replacingOccurrences(of: "pg\(id)", with: "pg\(fresh)")
      }
    }
    return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
  }
}
