import Foundation

/// A feed the size of Project Gutenberg's real one (`rdf-files.tar.bz2`, 2025: 130.6 MB, 2.05 GB
/// of records for about 77,000 books), for the bench: each book's record as ``FeedGenerator``
/// writes it, with as many more `pgterms:file` entries as PG's real records carry (its records
/// average 27 kB, most of it the dozens of files each book has: every edition, zip and cover,
/// each with its size, date and format under a random node id). The added files repeat MIME
/// types the book already has, after its first file of that type (never one holding
/// `noimages`), so Gutendex's rules read the same book from the record: only its size changes.
public enum RealSizeFeed {
  /// Bytes of records in PG's feed.
  public static let recordBytes = 2_050_000_000

  /// What was written.
  public struct Written: Sendable {
    /// Records written (one per book).
    public var records: Int
    /// Bytes of records (the tar's contents).
    public var bytes: Int
  }

  /// Writes the feed of `books` (server-shaped JSON objects) to `path`, with about
  /// `recordBytes` bytes of records in all.
  public static func write(
    books: [Data], recordBytes: Int = recordBytes, to path: String
  ) throws -> Written {
    let keyed = try books.map { book -> (Int, Data) in
      let object = try JSONSerialization.jsonObject(with: book) as? [String: Any]
      return (object?["id"] as? Int ?? 0, book)
    }.sorted { $0.0 < $1.0 }
    // Files are added to each record until the records written so far reach the real
    // average (a book with no type to repeat passes its share on to the next).
    let target = keyed.isEmpty ? 0 : recordBytes / keyed.count
    let writer = try FeedArchiveWriter(path: path)
    var written = Written(records: 0, bytes: 0)
    var owed = 0
    for (id, book) in keyed {
      var record = try FeedGenerator.record(book)
      owed += target - record.utf8.count
      let types = try FeedGenerator.formats(book).filter { !$0.1.contains("noimages") }.map(\.0)
      if !types.isEmpty, owed > 0 {
        let end = "  </pgterms:ebook>\n</rdf:RDF>\n"
        precondition(record.hasSuffix(end), "FeedGenerator's record ends otherwise")
        record.removeLast(end.utf8.count)
        var generator = Bzip2Writer.SplitMix(seed: UInt64(id))
        var index = 0
        while owed > 0 {
          let file = entry(id: id, index: index, type: types[index % types.count], &generator)
          record += file
          owed -= file.utf8.count
          index += 1
        }
        record += end
      }
      let bytes = Data(record.utf8)
      try writer.add(id: id, bytes)
      written.records += 1
      written.bytes += bytes.count
    }
    try writer.close()
    return written
  }

  /// One `dcterms:hasFormat` entry as PG writes them: a file's URL, size, format (under a
  /// random node id) and modification time.
  static func entry(
    id: Int, index: Int, type: String, _ generator: inout Bzip2Writer.SplitMix
  ) -> String {
    func hex(_ value: UInt64) -> String {
      let digits = String(value, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
    func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let name = hex(generator.next()) + hex(generator.next())
    let node = hex(generator.next()) + hex(generator.next())
    let size = 2_000 + generator.next() % 3_000_000
    let random = generator.next()
    let date =
      "20\(10 + random % 16)-\(two(1 + random / 16 % 12))-\(two(1 + random / 192 % 28))"
      + "T\(two(random / 5_376 % 24)):\(two(random / 129_024 % 60)):"
      + "\(two(random / 7_741_440 % 60)).\(random / 464_486_400 % 1_000_000)"
    let escaped = FeedGenerator.escape(type)
    return """
          <dcterms:hasFormat>
            <pgterms:file rdf:about="https://www.gutenberg.org/files/\(id)/\(id)-\(index)-\(name).bin">
              <dcterms:extent rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">\(size)</dcterms:extent>
              <dcterms:format>
                <rdf:Description rdf:nodeID="N\(node)">
                  <rdf:value rdf:datatype="http://purl.org/dc/terms/IMT">\(escaped)</rdf:value>
                  <dcam:memberOf rdf:resource="http://purl.org/dc/terms/IMT"/>
                </rdf:Description>
              </dcterms:format>
              <dcterms:modified rdf:datatype="http://www.w3.org/2001/XMLSchema#dateTime">\(date)</dcterms:modified>
              <dcterms:isFormatOf rdf:resource="ebooks/\(id)"/>
            </pgterms:file>
          </dcterms:hasFormat>

      """
  }
}
