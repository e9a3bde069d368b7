import Foundation
import GutendexServer
import TestTraits
import Testing

@testable import GutendexEngine
@testable import TestSupport

/// Issue 35's probes against the catalogue, fed to the real binary over loopback and on disk:
/// numbers out of range and lists past the limit from the API (classes 1 and 3), indexes whose
/// header is valid but whose sections are not (class 5), a broken embedded index (class 7), a
/// note holding U+0000 (class 7). Each ends by itself with one line naming the cause, and every
/// favourite, bookmark and download (and the catalogue, where the fault should not change it)
/// is as it was.
@Suite(.serialized, .ownThread)
struct HostileCatalogueTests {
  /// The books a hostile API offers on its newest page, and what the sync must say of each.
  static func hostileBooks() throws -> [Data] {
    func author(birth: Int) -> (inout [String: Any]) -> Void {
      { $0["authors"] = [["name": "Nobody", "birth_year": birth, "death_year": 1900]] }
    }
    return [
      try HostilePages.book(90105),
      try HostilePages.book(90104) { $0["subjects"] = (0..<65_536).map { "Subject \($0)" } },
      try HostilePages.book(90103, author(birth: 1 << 40)),
      try HostilePages.book(90102) { $0["download_count"] = 1 << 31 },
      try HostilePages.book(90101, author(birth: 1 << 62)),
      try HostilePages.book(1 << 31),
      // Numbers no 64-bit integer holds: a year of 26 digits, a count of 1e400.
      try Self.writing("99999999999999999999999999", for: 123_456_789) {
        try HostilePages.book(90106, author(birth: 123_456_789))
      },
      try Self.writing("1e400", for: 987_654_321) {
        try HostilePages.book(90107) { $0["download_count"] = 987_654_321 }
      },
    ]
  }

  /// The book `make` gives, with the number `marker` written as `literal`.
  static func writing(_ literal: String, for marker: Int, _ make: () throws -> Data) rethrows
    -> Data
  {
    let text = String(decoding: try make(), as: UTF8.self)
    return Data(text.replacingOccurrences(of: String(marker), with: literal).utf8)
  }

  @Test func aSyncSkipsBooksOutOfRangeByIDAndFieldAndCutsLongLists() async throws {
    try await Holdings.with(api: HostilePages(offering: Self.hostileBooks())) { holdings in
      let app = holdings.app
      let server = holdings.url.absoluteString
      let sync = try await app.run(["sync", "--server", server], timeout: .seconds(300))
      #expect(sync.endedByItself && sync.status == 0, "\(sync)")
      let note = try #require(sync.errLines.first { $0.hasPrefix("note: ") }, "\(sync)")
      #expect(sync.errLines.filter { $0.hasPrefix("note: ") }.count == 1, "\(sync)")
      for named in [
        "book 90101 (authors[0].birth_year 4611686018427387904 is out of range",
        "book 90102 (download_count 2147483648 is out of range",
        "book 90103 (authors[0].birth_year 1099511627776 is out of range",
        "book 2147483648 (id 2147483648 is out of range",
        "book 90106 (authors[0].birth_year of more than 18 digits is out of range",
        "book 90107 (download_count of more than 18 digits is out of range",
        "cut to what the index holds: book 90104 (65536 subjects, 65535 kept)",
      ] {
        #expect(note.contains(named), "\(named): \(sync)")
      }
      // Each book is named once.
      #expect(note.components(separatedBy: "book 90101 (").count == 2, "\(sync)")
      // The books that fit are in the catalogue; those that do not, are not.
      let sound = try await app.run(["show", "90105", "--source", "local"])
      #expect(sound.status == 0, "\(sound)")
      let cut = try await app.run(["show", "90104", "--json", "--source", "local"])
      let object = try JSONSerialization.jsonObject(with: cut.stdout) as? [String: Any]
      #expect((object?["subjects"] as? [Any])?.count == 65_535, "\(cut.err)")
      for skipped in [90101, 90102, 90103, 90106, 90107] {
        let show = try await app.run(["show", "\(skipped)", "--source", "local"])
        #expect(show.status != 0 && show.errLines.count == 1, "\(show)")
      }
      // The next sync (the browser's background sync did this at every start) answers too.
      let again = try await app.run(["sync", "--server", server], timeout: .seconds(300))
      #expect(again.endedByItself && again.status == 0, "\(again)")
      let doctor = try await app.run(["doctor"])
      #expect(doctor.status == 0, "\(doctor)")
      try await holdings.expectIntact("numbers out of range")
    }
  }

  /// `index` with section `section`'s offset moved by 8 bytes: a valid header, wrong offsets.
  static func movingSection(_ section: IndexSection, of index: Data) -> Data {
    var bytes = index
    let at = IndexSection.headerSize + IndexSection.entrySize * section.rawValue
    let offset = (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    withUnsafeBytes(of: UInt64(offset + 8).littleEndian) {
      bytes.replaceSubrange(at..<at + 8, with: $0)
    }
    return bytes
  }

  /// The embedded index replaced (`GUTENBERG_INDEX`) by one with moved offsets, random bytes,
  /// or a damaged big section: no query serves it (it listed negative ids), and `doctor` says
  /// it is damaged (it said ok).
  @Test func aDamagedEmbeddedIndexIsRefusedAndReported() async throws {
    try await Holdings.with { holdings in
      let sound = try Data(contentsOf: try #require(EmbeddedCatalogue.resourceURL))
      var flipped = sound
      flipped[flipped.count / 2] ^= 0x10
      var random = Data(count: 1 << 20)
      for index in random.indices { random[index] = UInt8.random(in: 0...255) }
      let cases: [(String, Data, queries: Bool)] = [
        ("moved ids", Self.movingSection(.ids, of: sound), true),
        ("moved records", Self.movingSection(.records, of: sound), true),
        ("random bytes", random, true),
        // Met by `doctor` (which reads it all), not by a cold query (which reads its pages).
        ("a flipped byte", flipped, false),
      ]
      for (name, bytes, queries) in cases {
        let file = holdings.app.root.appendingPathComponent("hostile.gdxindex")
        try bytes.write(to: file)
        var app = holdings.app
        app.extraEnvironment["GUTENBERG_INDEX"] = file.path
        if queries {
          let list = try await app.run(["list", "--source", "local"])
          #expect(list.endedByItself && list.status == 69, "\(name): \(list)")
          #expect(list.errLines.count == 1, "\(name): \(list)")
          #expect(list.err.hasPrefix("error: cannot open the embedded catalogue"), "\(name)")
          #expect(list.out.isEmpty, "\(name): something was listed: \(list)")
          // One line, and no note about a damaged local catalogue before it (class 7). Not
          // book 84: the favourite's own copy answers for it.
          let show = try await app.run(["show", "1342", "--source", "local"])
          #expect(show.errLines.count == 1, "\(name): \(show)")
          #expect(!show.err.contains("local catalogue is damaged"), "\(name): \(show)")
        }
        let doctor = try await app.run(["doctor"])
        #expect(doctor.endedByItself && doctor.status == 65, "\(name): \(doctor)")
        #expect(
          doctor.outLines.contains { $0.hasPrefix("embedded catalogue: damaged (") },
          "\(name): \(doctor)")
      }
      try await holdings.expectIntact("damaged embedded index")
    }
  }

  /// The local catalogue's own index (a delta a sync wrote) with moved offsets: the embedded
  /// catalogue answers with one note, and `doctor` says the catalogue is damaged.
  @Test func aDamagedLocalIndexIsNotServedAndDoctorSaysSo() async throws {
    let api = try HostilePages(offering: [try HostilePages.book(90105)])
    try await Holdings.with(api: api) { holdings in
      let app = holdings.app
      let sync = try await app.run(["sync", "--server", holdings.url.absoluteString])
      try #require(sync.status == 0, "\(sync)")
      let catalogue = app.dataDirectory.appendingPathComponent("catalogue")
      let names = try FileManager.default.contentsOfDirectory(atPath: catalogue.path)
      let delta = catalogue.appendingPathComponent(
        try #require(names.first { $0.hasPrefix("delta-") }, "\(names)"))
      try Self.movingSection(.downloads, of: try Data(contentsOf: delta)).write(to: delta)

      let list = try await app.run(["list", "--source", "local"])
      #expect(list.endedByItself && list.status == 0, "\(list)")
      #expect(list.errLines.count == 1, "\(list)")
      #expect(list.err.contains("the local catalogue is damaged"), "\(list)")
      let doctor = try await app.run(["doctor"])
      #expect(doctor.status == 65, "\(doctor)")
      #expect(doctor.outLines.contains { $0.hasPrefix("catalogue: damaged (") }, "\(doctor)")
      try await holdings.expectIntact("damaged local index")
    }
  }

  /// An imported note holding U+0000 was cut there with "1 added": refused whole, one line
  /// naming the field, nothing imported.
  @Test func aNoteHoldingNULIsRefusedWhole() async throws {
    try await Holdings.with { holdings in
      let app = holdings.app
      let text = String(decoding: try Holdings.document(), as: UTF8.self)
        .replacingOccurrences(of: #""note":"the storm""#, with: #""note":"the\u0000storm""#)
        .replacingOccurrences(of: "b-storm", with: "b-nul")
      let file = app.root.appendingPathComponent("nul.json")
      try Data(text.utf8).write(to: file)
      let run = try await app.run(["favorites", "import", file.path])
      #expect(run.endedByItself && run.status == 65, "\(run)")
      #expect(run.errLines.count == 1, "\(run)")
      #expect(run.err.contains("favorites[0].bookmarks[0].note"), "\(run)")
      #expect(run.err.contains("U+0000"), "\(run)")
      try await holdings.expectIntact("a note holding U+0000")
    }
  }
}
