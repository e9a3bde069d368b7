import Foundation
import Gutendex
import TestSupport
import Testing

@testable import GutendexEngine

/// The feed reader against Gutendex's own rules (`books/utils.py` `get_book`): books written
/// as PG's RDF by the generator, with every quirk, must come back as the server serves them.
@Suite("Feed reader")
struct FeedReaderTests {
  /// Real books of the 2025-08 catalogue, as the server serves them (summaries included in
  /// the first 34; emptied in books.jsonl).
  static func fixtureBooks() throws -> [Data] {
    let lines =
      try FixtureFiles.data("catalogue-2025-08-first34.jsonl").split(separator: 0x0A)
      + FixtureFiles.data("books.jsonl").split(separator: 0x0A)
    var seen = Set<Int>()
    return try lines.map { Data($0) }.filter {
      let id = try Book.decode(from: $0).id
      return seen.insert(id).inserted
    }
  }

  static func feed(books: [Data], extra: [(Int, String)] = []) throws -> Data {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("feed-\(UUID().uuidString).tar.bz2").path
    defer { unlink(path) }
    try FeedGenerator.writeFeed(books: books, extra: extra, to: path)
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test func everyBookComesBackAsTheServerServesIt() async throws {
    let books = try Self.fixtureBooks()
    let feed = try Self.feed(books: books)
    #expect(feed.starts(with: Array("BZh".utf8)))
    let read = try await FeedReader.books(fromFeed: feed)
    #expect(read.skipped.isEmpty)
    let expected = Dictionary(
      uniqueKeysWithValues: try books.map { (try Book.decode(from: $0).id, $0) })
    #expect(read.books.count == books.count)
    for json in read.books {
      let id = try Book.decode(from: json).id
      #expect(
        String(decoding: json, as: UTF8.self)
          == String(decoding: expected[id] ?? Data(), as: UTF8.self), "book \(id)")
    }
  }

  /// A record in PG's published shape (as in real `pg*.rdf` files), written by hand, with the
  /// rules spelled out in the expected book.
  static let handWritten = """
    <?xml version="1.0" encoding="utf-8"?>
    <rdf:RDF xml:base="http://www.gutenberg.org/"
      xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
      xmlns:dcterms="http://purl.org/dc/terms/"
      xmlns:pgterms="http://www.gutenberg.org/2009/pgterms/"
      xmlns:dcam="http://purl.org/dc/dcam/"
      xmlns:marcrel="http://id.loc.gov/vocabulary/relators/"
      xmlns:cc="http://web.resource.org/cc/">
      <pgterms:ebook rdf:about="ebooks/90001">
        <dcterms:creator>
          <pgterms:agent rdf:about="2009/agents/1">
            <pgterms:name>Hugo, Victor</pgterms:name>
            <pgterms:birthdate rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">1802</pgterms:birthdate>
            <pgterms:deathdate rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">1885</pgterms:deathdate>
          </pgterms:agent>
        </dcterms:creator>
        <dcterms:creator>
          <pgterms:agent rdf:about="2009/agents/2"><pgterms:alias>Nobody</pgterms:alias></pgterms:agent>
        </dcterms:creator>
        <marcrel:trl>
          <pgterms:agent rdf:about="2009/agents/3">
            <pgterms:alias>Wraxall, Lascelles</pgterms:alias>
            <pgterms:name>Wraxall, Lascelles, Sir</pgterms:name>
            <pgterms:birthdate rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">1828</pgterms:birthdate>
          </pgterms:agent>
        </marcrel:trl>
        <marcrel:edt>
          <pgterms:agent rdf:about="2009/agents/4"><pgterms:name>Editor, Ed</pgterms:name></pgterms:agent>
        </marcrel:edt>
        <marcrel:ill>
          <pgterms:agent rdf:about="2009/agents/5"><pgterms:name>Bayard, Émile</pgterms:name></pgterms:agent>
        </marcrel:ill>
        <dcterms:title>Les Misérables \r\n  Volume 1 \n\tFantine</dcterms:title>
        <pgterms:marc520>Second summary.</pgterms:marc520>
        <pgterms:marc520>First &amp; only "summary".</pgterms:marc520>
        <dcterms:rights>Copyrighted. Read the copyright notice inside this book for details.</dcterms:rights>
        <dcterms:language><rdf:Description rdf:nodeID="a"><rdf:value rdf:datatype="http://purl.org/dc/terms/RFC4646">fr</rdf:value></rdf:Description></dcterms:language>
        <dcterms:language><rdf:Description rdf:nodeID="b"><rdf:value rdf:datatype="http://purl.org/dc/terms/RFC4646">en</rdf:value></rdf:Description></dcterms:language>
        <dcterms:subject><rdf:Description rdf:nodeID="c"><dcam:memberOf rdf:resource="http://purl.org/dc/terms/LCSH"/><rdf:value>Paris (France) -- Fiction</rdf:value></rdf:Description></dcterms:subject>
        <dcterms:subject><rdf:Description rdf:nodeID="d"><dcam:memberOf rdf:resource="http://purl.org/dc/terms/LCC"/><rdf:value>PQ</rdf:value></rdf:Description></dcterms:subject>
        <dcterms:subject><rdf:Description rdf:nodeID="e"><dcam:memberOf rdf:resource="http://purl.org/dc/terms/LCSH"/><rdf:value>Historical fiction</rdf:value></rdf:Description></dcterms:subject>
        <dcterms:subject><rdf:Description rdf:nodeID="f"><dcam:memberOf rdf:resource="http://purl.org/dc/terms/LCSH"/><rdf:value>Paris (France) -- Fiction</rdf:value></rdf:Description></dcterms:subject>
        <pgterms:downloads rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">4321</pgterms:downloads>
        <dcterms:hasFormat><pgterms:file rdf:about="https://www.gutenberg.org/ebooks/90001.epub.noimages"><dcterms:format><rdf:Description rdf:nodeID="g"><dcam:memberOf rdf:resource="http://purl.org/dc/terms/IMT"/><rdf:value rdf:datatype="http://purl.org/dc/terms/IMT">application/epub+zip</rdf:value></rdf:Description></dcterms:format></pgterms:file></dcterms:hasFormat>
        <dcterms:hasFormat><pgterms:file rdf:about="https://www.gutenberg.org/files/90001/90001-0.txt"><dcterms:format><rdf:Description rdf:nodeID="h"><rdf:value rdf:datatype="http://purl.org/dc/terms/IMT">text/plain; charset=us-ascii</rdf:value></rdf:Description></dcterms:format></pgterms:file></dcterms:hasFormat>
        <dcterms:hasFormat><pgterms:file rdf:about="https://www.gutenberg.org/ebooks/90001.epub3.images"><dcterms:format><rdf:Description rdf:nodeID="i"><rdf:value rdf:datatype="http://purl.org/dc/terms/IMT">application/epub+zip</rdf:value></rdf:Description></dcterms:format></pgterms:file></dcterms:hasFormat>
        <dcterms:hasFormat><pgterms:file rdf:about="https://www.gutenberg.org/ebooks/90001.txt.utf-8"><dcterms:format><rdf:Description rdf:nodeID="j"><rdf:value rdf:datatype="http://purl.org/dc/terms/IMT">text/plain; charset=us-ascii</rdf:value></rdf:Description></dcterms:format></pgterms:file></dcterms:hasFormat>
        <dcterms:hasFormat><pgterms:file rdf:about="https://www.gutenberg.org/cache/epub/90001/pg90001-h.zip"><dcterms:format><rdf:Description rdf:nodeID="k"><rdf:value rdf:datatype="http://purl.org/dc/terms/IMT">application/octet-stream</rdf:value></rdf:Description></dcterms:format><dcterms:format><rdf:Description rdf:nodeID="l"><rdf:value rdf:datatype="http://purl.org/dc/terms/IMT">application/zip</rdf:value></rdf:Description></dcterms:format></pgterms:file></dcterms:hasFormat>
        <pgterms:bookshelf><rdf:Description rdf:nodeID="m"><dcam:memberOf rdf:resource="2009/pgterms/Bookshelf"/><rdf:value>Category: Novels</rdf:value></rdf:Description></pgterms:bookshelf>
        <pgterms:bookshelf><rdf:Description rdf:nodeID="n"><dcam:memberOf rdf:resource="2009/pgterms/Bookshelf"/><rdf:value>Best Books Ever Listings</rdf:value></rdf:Description></pgterms:bookshelf>
        <pgterms:bookshelf><rdf:Description rdf:nodeID="o"><dcam:memberOf rdf:resource="2009/pgterms/Bookshelf"/><rdf:value>Category: Novels</rdf:value></rdf:Description></pgterms:bookshelf>
      </pgterms:ebook>
    </rdf:RDF>
    """

  static let handWrittenBook =
    #"{"id":90001,"title":"Les Misérables: Volume 1; Fantine","#
    + #""authors":[{"name":"Hugo, Victor","birth_year":1802,"death_year":1885}],"#
    + #""summaries":["First & only \"summary\".","Second summary."],"#
    + #""editors":[{"name":"Editor, Ed","birth_year":null,"death_year":null}],"#
    + #""translators":[{"name":"Wraxall, Lascelles, Sir","birth_year":1828,"death_year":null}],"#
    + #""subjects":["Historical fiction","Paris (France) -- Fiction"],"#
    + #""bookshelves":["Best Books Ever Listings","Category: Novels"],"languages":["en","fr"],"#
    + #""copyright":true,"media_type":"Text","formats":{"#
    + #""application/epub+zip":"https://www.gutenberg.org/ebooks/90001.epub3.images","#
    + #""text/plain; charset=us-ascii":"https://www.gutenberg.org/files/90001/90001-0.txt","#
    + #""application/octet-stream":"https://www.gutenberg.org/cache/epub/90001/pg90001-h.zip"},"#
    + #""download_count":4321}"#

  @Test func aHandWrittenRecordFollowsEveryRule() async throws {
    let feed = try Self.feed(books: [], extra: [(90001, Self.handWritten)])
    let read = try await FeedReader.books(fromFeed: feed)
    #expect(read.books.map { String(decoding: $0, as: UTF8.self) } == [Self.handWrittenBook])
  }

  @Test func rightsOtherThanTheTwoPrefixesAreNull() throws {
    for (rights, expected) in [
      ("Public domain in the USA.", "false"), ("Copyrighted. Read it.", "true"),
      ("None", "null"), ("public domain in the USA.", "null"),
    ] {
      let xml = Self.handWritten.replacingOccurrences(
        of: "Copyrighted. Read the copyright notice inside this book for details.", with: rights)
      let record = try Array(xml.utf8).withUnsafeBytes {
        try FeedRecordReader.read(id: 90001, bytes: $0)
      }
      let json = String(decoding: record?.json ?? [], as: UTF8.self)
      let field = "\"copyright\":\(expected),"
      #expect(json.contains(field), "\(rights)")
    }
  }

  @Test func aRecordWithoutTitleOrDownloadsIsHidden() throws {
    for cut in ["dcterms:title", "pgterms:downloads"] {
      let xml = Self.handWritten.replacingOccurrences(of: cut, with: "dcterms:ignored")
      let record = try Array(xml.utf8).withUnsafeBytes {
        try FeedRecordReader.read(id: 90001, bytes: $0)
      }
      #expect(record == nil, "without \(cut)")
    }
  }

  @Test func aBrokenRecordIsSkippedByIDAndTheRestIsRead() async throws {
    let books = Array(try Self.fixtureBooks().prefix(5))
    let broken = String(Self.handWritten.dropLast(40))
    let feed = try Self.feed(books: books, extra: [(90002, broken)])
    let read = try await FeedReader.books(fromFeed: feed)
    #expect(read.books.count == 5)
    #expect(read.skipped.keys.sorted() == [90002])
  }

  @Test func fixSubtitlesIsGutendexs() {
    #expect(
      FeedRecordReader.fixSubtitles(
        "First Across ...\r\nThe Story of ... \r\nBeing an investigation into ...")
        == "First Across ...: The Story of ...; Being an investigation into ...")
    #expect(FeedRecordReader.fixSubtitles("A \t\n\n\r B\nC") == "A: B; C")
    #expect(FeedRecordReader.fixSubtitles("No break  here") == "No break  here")
  }

  @Test func garbageAndTruncatedFeedsAreRefused() async throws {
    let feed = try Self.feed(books: Array(try Self.fixtureBooks().prefix(40)))
    await #expect(throws: FeedArchive.Failure.self) {
      _ = try await FeedReader.books(fromFeed: Data("<html>Not Found</html>".utf8))
    }
    await #expect(throws: FeedArchive.Failure.self) {
      _ = try await FeedReader.books(fromFeed: feed.prefix(feed.count / 2))
    }
  }
}

/// When a sync refreshes from the feed: never-refreshed, older than the age, another URL, forced.
@Suite("Feed policy")
struct FeedPolicyTests {
  @Test func aRefreshIsDueByAgeURLOrForce() {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var state = FeedState(url: FeedPolicy.defaultURL.absoluteString)
    state.checked = now.addingTimeInterval(-6 * 86_400)
    let weekly = FeedPolicy()
    #expect(weekly.isDue(nil, at: now))
    #expect(!weekly.isDue(state, at: now))
    #expect(weekly.isDue(state, at: now.addingTimeInterval(86_400)))
    #expect(FeedPolicy(force: true).isDue(state, at: now))
    #expect(!FeedPolicy(maxAge: nil).isDue(nil, at: now))
    let mirror = FeedPolicy(url: URL(string: "https://mirror.example/rdf-files.tar.bz2")!)
    #expect(mirror.isDue(state, at: now))
  }
}
