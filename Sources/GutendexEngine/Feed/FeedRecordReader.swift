import CLibXML2
import Foundation

/// Reads one `cache/epub/<id>/pg<id>.rdf` record of Project Gutenberg's feed into a book,
/// rule for rule as Gutendex's own reader (`books/utils.py` `get_book`, stored by
/// `updatecatalog.py`, serialized by `BookSerializer`) does:
///
/// - title: the first `dcterms:title`, line breaks (with the blanks around them) becoming
///   `": "` for the first and `"; "` for the rest (`fix_subtitles`);
/// - authors, editors, translators: `dcterms:creator`, `marcrel:edt`, `marcrel:trl` whose agent
///   has a `pgterms:name` (one without is dropped), with birth and death years; the same person
///   twice is stored once (a many-to-many add);
/// - subjects: only those whose `dcam:memberOf` is LCSH (LCC codes dropped), as a sorted set;
///   bookshelves and languages likewise distinct and sorted (the serializer sorts them);
/// - summaries: every `pgterms:marc520`, distinct, sorted;
/// - copyright: `dcterms:rights` starting "Public domain in the USA." → false, "Copyrighted." →
///   true, anything else null;
/// - media type: the first `dcterms:type` value, "Text" when there is none;
/// - formats: per MIME type (a file's first `dcterms:format` value) the first file in RDF
///   order, except that a later file replaces a URL holding `noimages`;
/// - download count: `pgterms:downloads`.
///
/// A record without a title or a download count is one the server hides: nil.
enum FeedRecordReader {
  static let lcsh = "\(RDFNode.Namespace.dc.href)LCSH"

  /// Why libxml2 could not be opened, nil once it is. It is not linked: only a feed sync
  /// parses XML, so no other command maps it nor the ICU libraries it depends on.
  static var loadFailure: UnsafePointer<CChar>? { gb_xml_load() }

  /// The book record `bytes` hold, nil when the server would hide it; throws when the record
  /// is not one Gutendex could read (bad XML, no `pgterms:ebook`, a year that is not a number).
  static func read(id: Int, bytes: UnsafeRawBufferPointer) throws(FeedRecordError) -> BookRecord? {
    try readDated(id: id, bytes: bytes)?.record
  }

  /// ``read(id:bytes:)`` with the record's release date (`dcterms:issued`, `YYYY-MM-DD`), nil
  /// when it has none or one that is not such a date (`None` in some old records), and what
  /// was cut to fit ``IndexLimits`` (a number out of range throws).
  static func readDated(id: Int, bytes: UnsafeRawBufferPointer) throws(FeedRecordError)
    -> (record: BookRecord, issued: String?, cuts: [String])?
  {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
      let size = Int32(exactly: bytes.count)
    else { throw FeedRecordError(id: id, reason: "an empty record") }
    if let failure = loadFailure { throw FeedRecordError(id: id, reason: String(cString: failure)) }
    // No network, no error output, compact nodes.
    guard let document = gb_xml_read(base, size) else {
      throw FeedRecordError(id: id, reason: "not well-formed XML")
    }
    defer { gb_xml_free_document(document) }
    // Gutendex parses with defusedxml, which refuses a document type (entity declarations).
    guard gb_xml_has_doctype(document) == 0 else {
      throw FeedRecordError(id: id, reason: "a document type declaration")
    }
    guard let rootPointer = gb_xml_root(document),
      let book = RDFNode(pointer: rootPointer).children.first(where: { $0.is(.pg, "ebook") })
    else { throw FeedRecordError(id: id, reason: "no pgterms:ebook") }
    let fields = Fields(book)
    guard let read = try read(id: id, fields) else { return nil }
    // Into what the index can hold: a number out of range skips the book, named; a list past
    // the limit is cut, and said.
    let record: BookRecord
    let cuts: [String]
    switch IndexLimits.fit(read) {
    case .skipped(let problem): throw FeedRecordError(id: id, reason: problem.description)
    case .kept(let fitted, let cut): (record, cuts) = (fitted, cut)
    }
    let issued = fields.issued?.text?.trimmingCharacters(in: .whitespacesAndNewlines)
    return (record, issued.flatMap { Arrival.isIssuedDate($0) ? $0 : nil }, cuts)
  }

  /// The elements of a book `get_book` reads, found in one walk of the record in document
  /// order: the first of each `find` and every one of each `findall` (`.//`, nested ones
  /// included), exactly what a search per field would find. One walk, not one per field: a
  /// record's dozens of files made the searches most of a feed refresh's time.
  struct Fields {
    var title, downloads, rights, issued: RDFNode?
    var subjects: [RDFNode] = [], bookshelves: [RDFNode] = [], languages: [RDFNode] = []
    var types: [RDFNode] = [], files: [RDFNode] = [], summaries: [RDFNode] = []
    var creators: [RDFNode] = [], editors: [RDFNode] = [], translators: [RDFNode] = []

    init(_ book: RDFNode) {
      book.forEachDescendant { node in
        switch node.tag {
        case .title: if title == nil { title = node }
        case .downloads: if downloads == nil { downloads = node }
        case .rights: if rights == nil { rights = node }
        case .issued: if issued == nil { issued = node }
        case .subject: subjects.append(node)
        case .bookshelf: bookshelves.append(node)
        case .language: languages.append(node)
        case .type: types.append(node)
        case .file: files.append(node)
        case .summary: summaries.append(node)
        case .creator: creators.append(node)
        case .editor: editors.append(node)
        case .translator: translators.append(node)
        case .other: break
        }
      }
    }
  }

  private static func read(id: Int, _ book: Fields) throws(FeedRecordError) -> BookRecord? {
    func person(_ element: RDFNode) throws(FeedRecordError) -> PersonRecord? {
      guard let name = element.first(.pg, "name") else { return nil }
      func year(_ tag: StaticString) throws(FeedRecordError) -> Int? {
        guard let node = element.first(.pg, tag) else { return nil }
        guard let value = PythonInt.parse(node.text ?? "") else {
          throw FeedRecordError(id: id, reason: "\(tag) is not a number")
        }
        return value
      }
      return PersonRecord(
        name: name.text ?? "", birthYear: try year("birthdate"), deathYear: try year("deathdate"))
    }
    func people(_ elements: [RDFNode]) throws(FeedRecordError) -> [PersonRecord] {
      var out: [PersonRecord] = []
      // By hash: a hostile record's thousands of agents would make a scan of `out` quadratic.
      var seen: Set<PersonRecord> = []
      for element in elements {
        if let found = try person(element), seen.insert(found).inserted { out.append(found) }
      }
      return out
    }

    guard let titleText = book.title?.text else { return nil }
    guard let downloadsNode = book.downloads else { return nil }
    guard let downloads = PythonInt.parse(downloadsNode.text ?? "") else {
      throw FeedRecordError(id: id, reason: "pgterms:downloads is not a number")
    }

    var subjects: [String] = []
    for subject in book.subjects {
      // `subject_type in ('…LCSH')` is a substring test in Gutendex (a string, not a tuple).
      guard let member = subject.first(.dcam, "memberOf"),
        let resource = member.attribute(.rdf, "resource"), lcsh.contains(resource),
        let value = subject.first(.rdf, "value")?.text
      else { continue }
      subjects.append(value)
    }
    let bookshelves = book.bookshelves.compactMap { $0.first(.rdf, "value")?.text }
    var languages: [String] = []
    for language in book.languages {
      language.forEachDescendant {
        if $0.is(.rdf, "value"), let code = $0.text { languages.append(code) }
      }
    }

    let copyright: Bool? =
      switch book.rights?.text {
      case let rights? where rights.hasPrefix("Public domain in the USA."): false
      case let rights? where rights.hasPrefix("Copyrighted."): true
      default: nil
      }

    var mediaType = "Text"
    for type in book.types {
      if let value = type.first(.rdf, "value") {
        mediaType = value.text ?? ""
        break
      }
    }

    var formats: [FormatEntry] = []
    var position: [String: Int] = [:]
    // Whether each kept URL holds `noimages`, found once per URL rather than once per later
    // file of its type (a hostile record may give one long URL thousands of rivals).
    var noImages: [Bool] = []
    for file in book.files {
      guard let format = file.children.first(where: { $0.is(.dc, "format") }),
        let mime = format.first(.rdf, "value")?.text
      else { continue }
      let url = file.attribute(.rdf, "about") ?? ""
      if let index = position[mime] {
        // A dict's key keeps its first place when its value is replaced.
        if noImages[index] {
          formats[index].url = url
          noImages[index] = url.contains("noimages")
        }
      } else {
        position[mime] = formats.count
        formats.append(FormatEntry(mime: mime, url: url, hasIDSlots: false))
        noImages.append(url.contains("noimages"))
      }
    }

    let summaries = book.summaries.compactMap(\.text)
    return BookRecord(
      id: id, title: fixSubtitles(titleText), authors: try people(book.creators),
      summaries: sortedSet(summaries), editors: try people(book.editors),
      translators: try people(book.translators), subjects: sortedSet(subjects),
      bookshelves: sortedSet(bookshelves), languages: sortedSet(languages),
      copyright: copyright, mediaType: mediaType, formats: formats, downloadCount: downloads)
  }

  /// Distinct strings in Python's order (code points, which is UTF-8 byte order; Swift's `<`
  /// compares canonical equivalents and would differ).
  static func sortedSet(_ strings: [String]) -> [String] {
    // Sorted, then equal neighbours dropped: a record holds a handful of each, so sorting beats
    // hashing every string's bytes.
    let sorted = strings.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    var out: [String] = []
    out.reserveCapacity(sorted.count)
    var last: [UInt8]?
    for bytes in sorted where bytes != last {
      out.append(String(decoding: bytes, as: UTF8.self))
      last = bytes
    }
    return out
  }

  /// Gutendex's `fix_subtitles`: each run of line breaks with the spaces and tabs around it
  /// (`[ \t]*[\n\r]+[ \t]*`) becomes ": " the first time and "; " after.
  ///
  /// Read as UTF-8 bytes (the characters matched are ASCII, which no other character's bytes
  /// hold) into one buffer: appending to a `String.UnicodeScalarView` copies it each time, which
  /// made a title of megabytes quadratic, as did looking for a break again at every blank of a
  /// run.
  static func fixSubtitles(_ title: String) -> String {
    var text = title
    // Nil: no break at all, the title as it is (most titles).
    let fixed = text.withUTF8 { bytes -> String? in
      guard bytes.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return nil }
      func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count)
      var replaced = false
      var index = 0
      while index < bytes.count {
        // A match starts at a blank or break and must hold at least one break.
        var end = index
        while end < bytes.count, isBlank(bytes[end]) { end += 1 }
        var breaks = end
        while breaks < bytes.count, bytes[breaks] == 0x0A || bytes[breaks] == 0x0D { breaks += 1 }
        guard breaks > end else {
          // No break after these blanks: no match starts anywhere in them either (each would
          // meet the same byte after the run), so they are kept whole and the search goes on
          // after them: each byte is looked at a bounded number of times.
          let next = max(end, index + 1)
          out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<next]))
          index = next
          continue
        }
        end = breaks
        while end < bytes.count, isBlank(bytes[end]) { end += 1 }
        out.append(contentsOf: replaced ? Self.semicolon : Self.colon)
        replaced = true
        index = end
      }
      return String(decoding: out, as: UTF8.self)
    }
    return fixed ?? title
  }

  private static let colon = Array(": ".utf8)
  private static let semicolon = Array("; ".utf8)
}

/// A feed record Gutendex could not read either: which book, and why.
struct FeedRecordError: Error, Sendable, Hashable {
  var id: Int
  var reason: String
}
