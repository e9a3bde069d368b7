import Foundation

/// Project Gutenberg's `today.rss`: the books posted or updated in the last day, one `<item>`
/// each whose `<link>` is the book's page (`https://www.gutenberg.org/ebooks/<id>`), and the
/// channel's `<pubDate>` (or `<lastBuildDate>`), when it was made. Read by a plain scan: the
/// file is a few kilobytes of PG's own fixed shape, and an item whose link names no book is
/// skipped rather than failing the rest.
public struct TodayRSS: Sendable, Hashable {
  /// The books the items name, in the file's order, each once.
  public var ids: [Int]
  /// When the file was made, as its channel says (RFC 822 date); nil when it does not say.
  public var built: Date?
  /// The date exactly as written, to recognise the same file served again.
  public var builtText: String?

  /// The most items read from one file: PG posts tens of books a day, not thousands.
  static let itemLimit = 5_000

  /// Reads `data`; throws when it is not an RSS document at all.
  public init(_ data: Data) throws(GutenbergFileError) {
    let text = String(decoding: data, as: UTF8.self)
    guard text.contains("<rss") || text.contains("<channel") else {
      throw GutenbergFileError(reason: "not an RSS document")
    }
    var ids: [Int] = []
    var seen: Set<Int> = []
    var rest = text[...]
    while ids.count < Self.itemLimit, let start = rest.range(of: "<item") {
      let after = rest[start.upperBound...]
      let end = after.range(of: "</item>")?.lowerBound ?? after.endIndex
      let item = after[..<end]
      if let link = Self.element("link", in: item), let id = Self.bookID(link), !seen.contains(id) {
        seen.insert(id)
        ids.append(id)
      }
      rest = after[end...]
    }
    self.ids = ids
    let channelHead = text.range(of: "<item").map { text[..<$0.lowerBound] } ?? text[...]
    builtText =
      (Self.element("pubDate", in: channelHead)
      ?? Self.element("lastBuildDate", in: channelHead))
      .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    built = builtText.flatMap(Self.date)
  }

  /// The text of the first `<name>…</name>` in `text`.
  static func element(_ name: String, in text: Substring) -> String? {
    guard let open = text.range(of: "<\(name)>"),
      let close = text[open.upperBound...].range(of: "</\(name)>")
    else { return nil }
    return String(text[open.upperBound..<close.lowerBound])
  }

  /// The book a link names: the number after `/ebooks/`.
  static func bookID(_ link: String) -> Int? {
    let trimmed = link.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let marker = trimmed.range(of: "/ebooks/") else { return nil }
    let digits = trimmed[marker.upperBound...].prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, digits.count < 10, let id = Int(digits), id > 0 else { return nil }
    return id
  }

  /// An RFC 822 date as RSS writes it (`Sat, 28 Nov 2026 03:00:01 +0000`, or a zone name).
  public static func date(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in [
      "EEE, dd MMM yyyy HH:mm:ss Z", "EEE, dd MMM yyyy HH:mm:ss zzz", "dd MMM yyyy HH:mm:ss Z",
      "EEE, d MMM yyyy HH:mm:ss Z",
    ] {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}
