import Foundation
import Testing

@testable import Terminal

@Suite struct TextFormatTests {
  @Test(arguments: [
    (0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (76_696, "76,696"),
    (1_234_567, "1,234,567"), (-45_256, "-45,256"),
  ])
  func groupsThousandsWithCommas(number: Int, expected: String) {
    #expect(TextFormat.grouped(number) == expected)
  }

  @Test func pluralises() {
    #expect(TextFormat.plural(1, "book") == "1 book")
    #expect(TextFormat.plural(0, "book") == "0 books")
    #expect(TextFormat.plural(76_696, "book") == "76,696 books")
    #expect(TextFormat.plural(2, "entry", plural: "entries") == "2 entries")
    #expect(TextFormat.plural(1, "entry", plural: "entries") == "1 entry")
    #expect(TextFormat.plural(-1, "book") == "-1 books")
  }

  @Test func writesYears() {
    #expect(TextFormat.years(birth: 1812, death: 1870) == "1812–1870")
    #expect(TextFormat.years(birth: -750, death: nil) == "750 BC–?")
    #expect(TextFormat.years(birth: -750, death: -650) == "750 BC–650 BC")
    #expect(TextFormat.years(birth: nil, death: 968) == "?–968")
    #expect(TextFormat.years(birth: 1950, death: nil) == "1950–?")
    #expect(TextFormat.years(birth: nil, death: nil) == "")
  }

  @Test func writesPeople() {
    #expect(
      TextFormat.person(name: "Dickens, Charles", birth: 1812, death: 1870)
        == "Dickens, Charles (1812–1870)")
    #expect(TextFormat.person(name: "Homer", birth: -750, death: nil) == "Homer (750 BC–?)")
    #expect(TextFormat.person(name: "Anonymous", birth: nil, death: nil) == "Anonymous")
    #expect(TextFormat.person(name: "\u{1B}[2J", birth: nil, death: nil) == "unknown")
    #expect(TextFormat.person(name: "Capsius, M.\u{200F}", birth: nil, death: nil) == "Capsius, M.")
  }

  static let ages: [(Double, String)] = [
    (-5, "just now"), (0, "just now"), (59, "just now"), (60, "1 min ago"), (300, "5 min ago"),
    (3_599, "59 min ago"), (3_600, "1 h ago"), (3 * 3_600 + 59, "3 h ago"),
    (86_399, "23 h ago"), (86_400, "1 day ago"), (2 * 86_400 + 5, "2 days ago"),
    (1_000 * 86_400, "1,000 days ago"), (Double.infinity, "just now"),
  ]

  @Test(arguments: ages)
  func writesRelativeAges(age: Double, expected: String) {
    #expect(TextFormat.age(age) == expected)
  }

  static let sizes: [(Int, String)] = [
    (0, "0 B"), (1_023, "1,023 B"), (1_024, "1.0 KiB"), (1_536, "1.5 KiB"),
    (1_258_291, "1.2 MiB"), (5 * 1_073_741_824, "5.0 GiB"),
  ]

  @Test(arguments: sizes)
  func writesSizes(count: Int, expected: String) {
    #expect(TextFormat.bytes(count) == expected)
  }

  @Test func writesDatesAndTimesInTheGivenZone() throws {
    let instant = Date(timeIntervalSince1970: 1_795_242_600)  // 2026-11-21 06:30:00 UTC
    let utc = try #require(TimeZone(identifier: "UTC"))
    let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
    let honolulu = try #require(TimeZone(identifier: "Pacific/Honolulu"))
    #expect(TextFormat.date(instant, timeZone: utc) == "2026-11-21")
    #expect(TextFormat.time(instant, timeZone: utc) == "06:30:00")
    #expect(TextFormat.time(instant, timeZone: tokyo) == "15:30:00")
    #expect(TextFormat.date(instant, timeZone: honolulu) == "2026-11-20")
  }
}
