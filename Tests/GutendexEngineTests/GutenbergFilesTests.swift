import Foundation
import Testing

@testable import GutendexEngine

/// Project Gutenberg's small files as PG writes them: `today.rss` (the shape its site code
/// writes: RSS 0.91, one `<item>` per book, the book's page as the link) and
/// `pg_catalog.csv(.gz)` (RFC 4180, PG's nine columns), and what is refused.
@Suite("Project Gutenberg's files")
struct GutenbergFilesTests {
  static let rss = """
    <?xml version="1.0" encoding="utf-8" ?>
    <rss version="0.91">
      <channel>
        <title>Project Gutenberg Recently Posted or Updated EBooks</title>
        <link>https://www.gutenberg.org</link>
        <description>
           EBooks posted or updated today on Project Gutenberg.
           This feed is regenerated every night.
        </description>
        <language>en-us</language>
        <webMaster>webmaster@gutenberg.org (Marcello Perathoner)</webMaster>
        <pubDate>Sat, 28 Nov 2026 03:00:01 +0000</pubDate>
        <lastBuildDate>Sat, 28 Nov 2026 03:00:01 +0000</lastBuildDate>
        <item>
          <title>Les Misérables, v. 1/5: Fantine by Victor Hugo</title>
          <link>https://www.gutenberg.org/ebooks/77301</link>
          <description>Language: French</description>
        </item>

        <item>
          <title>A &amp; B by Someone</title>
          <link>https://www.gutenberg.org/ebooks/135</link>
          <description>Language: English</description>
        </item>

        <item>
          <title>Repeated</title>
          <link>https://www.gutenberg.org/ebooks/77301</link>
          <description>Language: French</description>
        </item>

        <item>
          <title>Not a book</title>
          <link>https://www.gutenberg.org/about/</link>
          <description>Language: English</description>
        </item>
      </channel>
    </rss>
    """

  @Test func todayRSSNamesEachBookOnceWithTheChannelsDate() throws {
    let rss = try TodayRSS(Data(Self.rss.utf8))
    #expect(rss.ids == [77301, 135])
    #expect(rss.builtText == "Sat, 28 Nov 2026 03:00:01 +0000")
    #expect(rss.built == Date(timeIntervalSince1970: 1_795_834_801))
  }

  @Test func anEmptyDayHasNoBooksAndAPageIsNoRSS() throws {
    let empty = try TodayRSS(
      Data("<rss version=\"0.91\"><channel><title>x</title></channel></rss>".utf8))
    #expect(empty.ids.isEmpty)
    #expect(empty.built == nil)
    #expect(throws: GutenbergFileError.self) {
      try TodayRSS(Data("<html><body>Service Unavailable</body></html>".utf8))
    }
  }

  static let csv = #"""
    Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves
    1,Text,1971-12-01,The Declaration of Independence of the United States of America,en,"Jefferson, Thomas, 1743-1826","United States -- History -- Revolution, 1775-1783 -- Sources; United States. Declaration of Independence",E201; JK,"Category: American Literature; Category: History - American; Politics"
    5,Text,1975-12-01,"The United States Constitution
    With a second line, and ""quotes""",en,United States,United States -- Politics and government -- 1783-1789 -- Sources,JK; KF,"Category: History - American"
    12,Sound,2004-06-01,"Title, with a comma",en,,,,

    """#

  @Test func theCatalogueListNamesEveryRecordsFirstField() throws {
    let list = try CatalogCSV(compressed: Data(Self.csv.utf8))
    #expect(list.ids == [1, 5, 12])
  }

  @Test func theGzipListIsExpandedAndABombIsRefused() throws {
    let plain = Data(Self.csv.utf8)
    let gzipped = try Self.gzip(plain)
    #expect(try CatalogCSV(compressed: gzipped).ids == [1, 5, 12])
    #expect(throws: EngineError.self) { try Zlib.gunzip(gzipped, limit: 100) }
  }

  @Test func aFileThatIsNotTheCatalogueIsRefused() throws {
    #expect(throws: GutenbergFileError.self) {
      try CatalogCSV(compressed: Data("<html>404</html>".utf8))
    }
    #expect(throws: GutenbergFileError.self) {
      try CatalogCSV(compressed: Data("Text#,Type\nabc,Text\n".utf8))
    }
    // Cut short inside a quoted title.
    #expect(throws: GutenbergFileError.self) {
      try CatalogCSV(compressed: Data("Text#,Type,Title\n1,Text,\"Half a ti".utf8))
    }
    #expect(throws: GutenbergFileError.self) {
      try CatalogCSV(compressed: Data([0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02]))
    }
  }

  @Test func thePGSitePathsAreThoseItPublishes() throws {
    let site = GutenbergSite(base: try #require(URL(string: "https://mirror.example/pg/")))
    #expect(site.todayRSS.absoluteString == "https://mirror.example/pg/cache/epub/feeds/today.rss")
    #expect(
      site.catalogCSV.absoluteString
        == "https://mirror.example/pg/cache/epub/feeds/pg_catalog.csv.gz")
    #expect(site.record(84).absoluteString == "https://mirror.example/pg/cache/epub/84/pg84.rdf")
    #expect(GutenbergSite().feed.absoluteString == FeedPolicy.defaultURL.absoluteString)
  }

  /// `data` through the system's `gzip`.
  static func gzip(_ data: Data) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(data)
    try input.fileHandleForWriting.close()
    let result = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return result
  }
}
