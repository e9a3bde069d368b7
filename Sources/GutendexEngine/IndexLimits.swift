/// What a catalogue index can hold: the one set of limits the index writer keeps to and the
/// reader checks, so that every book written can be read back.
///
/// Numbers are stored as Int32 (ids and download counts are never negative, as in Gutendex's
/// `PositiveIntegerField`s; `Int32.min` stands for a null year), and each list of a book
/// (people, subjects, shelves, languages, formats, summaries) is counted in fewer than 2^16
/// entries. A book from outside (the feed, the API, an import) with a number out of range is
/// skipped with a note naming it and the field; a list longer than the limit is cut to it,
/// with a note.
public enum IndexLimits {
  /// Project Gutenberg numbers the index stores.
  public static let ids: ClosedRange<Int> = 0...Int(Int32.max)
  /// Download counts the index stores.
  public static let downloadCounts: ClosedRange<Int> = 0...Int(Int32.max)
  /// Birth and death years the index stores (`Int32.min` is its null).
  public static let years: ClosedRange<Int> = (Int(Int32.min) + 1)...Int(Int32.max)
  /// The most entries a list of one book may have.
  public static let listCount = (1 << 16) - 1

  /// A number of a book that the index cannot store: which book, which field, what value.
  public struct OutOfRange: Error, Sendable, Hashable, CustomStringConvertible {
    /// The book's id (as given, even when the id itself is the problem).
    public var id: Int
    /// The field, as the server's JSON names it (`download_count`, `authors[0].birth_year`).
    public var field: String
    /// The value as read; `Int.max` or `Int.min` for one beyond 64 bits.
    public var value: Int

    /// "download_count 2147483648 is out of range (0 to 2147483647)".
    public var description: String {
      let shown = value == .max || value == .min ? "of more than 18 digits" : "\(value)"
      return "\(field) \(shown) is out of range (\(Self.range(of: field)))"
    }

    private static func range(of field: String) -> String {
      let range: ClosedRange<Int> =
        field == "id" ? ids : field == "download_count" ? downloadCounts : years
      return "\(range.lowerBound) to \(range.upperBound)"
    }
  }

  /// The first number of `record` the index cannot store, nil when all fit.
  static func outOfRange(_ record: BookRecord) -> OutOfRange? {
    if !ids.contains(record.id) {
      return OutOfRange(id: record.id, field: "id", value: record.id)
    }
    if !downloadCounts.contains(record.downloadCount) {
      return OutOfRange(id: record.id, field: "download_count", value: record.downloadCount)
    }
    let groups = [
      ("authors", record.authors), ("editors", record.editors), ("translators", record.translators),
    ]
    for (name, people) in groups {
      for (number, person) in people.enumerated() {
        for (field, year) in [("birth_year", person.birthYear), ("death_year", person.deathYear)] {
          guard let year, !years.contains(year) else { continue }
          return OutOfRange(id: record.id, field: "\(name)[\(number)].\(field)", value: year)
        }
      }
    }
    return nil
  }

  /// Cuts each list of `record` longer than ``listCount`` to that many entries; what was cut,
  /// one phrase per list ("70000 subjects, 65535 kept"), empty when nothing was.
  static func cutLists(_ record: inout BookRecord) -> [String] {
    var cuts: [String] = []
    func cut<Element>(_ list: inout [Element], _ name: String) {
      guard list.count > listCount else { return }
      cuts.append("\(list.count) \(name), \(listCount) kept")
      list.removeLast(list.count - listCount)
    }
    cut(&record.authors, "authors")
    cut(&record.editors, "editors")
    cut(&record.translators, "translators")
    cut(&record.subjects, "subjects")
    cut(&record.bookshelves, "bookshelves")
    cut(&record.languages, "languages")
    cut(&record.formats, "formats")
    cut(&record.summaries, "summaries")
    return cuts
  }

  /// What becomes of a book read from outside: kept (its lists cut to the limits, with what
  /// was cut), or skipped for a number out of range.
  enum Fitted {
    case kept(BookRecord, cuts: [String])
    case skipped(OutOfRange)
  }

  /// `record` made fit for the index.
  static func fit(_ record: BookRecord) -> Fitted {
    if let problem = outOfRange(record) { return .skipped(problem) }
    var record = record
    let cuts = cutLists(&record)
    return .kept(record, cuts: cuts)
  }
}
