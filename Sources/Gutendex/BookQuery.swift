import Foundation

/// Every query parameter the Gutendex `/books/` endpoint understands, with its exact semantics.
///
/// Values are sent as given (the server, not the client, decides what they match), and the query
/// encodes deterministically, parameters in alphabetical order as the server's own `next` links
/// do, so ``cacheKey`` can key a page cache.
public struct BookQuery: Sendable, Hashable, Codable {
  /// Words that must each appear (case-insensitively) in the title or an author's name.
  /// The server splits on single spaces, so leave out doubled spaces.
  public var search: String?
  /// Language codes (`en`, `fr`, `enm`); a book in any of them matches. Sent comma-joined.
  public var languages: [String]
  /// A case-insensitive substring of any subject or bookshelf.
  public var topic: String?
  /// Keep books with some author born or dead in or after this year (negative is BCE).
  public var authorYearStart: Int?
  /// Keep books with some author born or dead in or before this year (negative is BCE).
  public var authorYearEnd: Int?
  /// Keep only books whose copyright flag is one of these; empty means any.
  public var copyright: Set<CopyrightStatus>
  /// Keep only these Project Gutenberg ids; empty means any.
  public var ids: [Int]
  /// Keep books with a format whose MIME type starts with this (case-sensitive, e.g. `text/`).
  public var mimeType: String?
  /// The order of results.
  public var sort: BookSort
  /// The 1-based page number; pages hold 32 books.
  public var page: Int

  /// A query; every parameter is optional, as on the server.
  public init(
    search: String? = nil, languages: [String] = [], topic: String? = nil,
    authorYearStart: Int? = nil, authorYearEnd: Int? = nil,
    copyright: Set<CopyrightStatus> = [], ids: [Int] = [], mimeType: String? = nil,
    sort: BookSort = .popular, page: Int = 1
  ) {
    self.search = search
    self.languages = languages
    self.topic = topic
    self.authorYearStart = authorYearStart
    self.authorYearEnd = authorYearEnd
    self.copyright = copyright
    self.ids = ids
    self.mimeType = mimeType
    self.sort = sort
    self.page = page
  }

  /// The server's page size: every full page holds this many books.
  public static let pageSize = 32

  /// The number of pages needed for `count` results (at least 1: an empty result is one page).
  public static func pageCount(forResults count: Int) -> Int {
    max(1, (count + pageSize - 1) / pageSize)
  }

  /// The same query at another page.
  public func atPage(_ page: Int) -> BookQuery {
    var copy = self
    copy.page = page
    return copy
  }

  /// The name/value pairs sent to the server, in alphabetical order of name; defaults omitted.
  public var parameters: [(name: String, value: String)] {
    var result: [(String, String)] = []
    if let authorYearEnd { result.append(("author_year_end", String(authorYearEnd))) }
    if let authorYearStart { result.append(("author_year_start", String(authorYearStart))) }
    if !copyright.isEmpty {
      result.append(("copyright", copyright.map(\.rawValue).sorted().joined(separator: ",")))
    }
    if !ids.isEmpty { result.append(("ids", ids.map(String.init).joined(separator: ","))) }
    if !languages.isEmpty { result.append(("languages", languages.joined(separator: ","))) }
    if let mimeType { result.append(("mime_type", mimeType)) }
    if page != 1 { result.append(("page", String(page))) }
    if let search { result.append(("search", search)) }
    if sort != .popular { result.append(("sort", sort.rawValue)) }
    if let topic { result.append(("topic", topic)) }
    return result
  }

  /// The percent-encoded query string (no leading `?`), stable for equal queries.
  public var encoded: String {
    Self.encode(parameters)
  }

  /// A stable key for this query without its page: equal filters give equal keys.
  public var cacheKey: String {
    atPage(1).encoded
  }

  /// Percent-encodes name/value pairs, keeping only RFC 3986 unreserved characters as they are.
  public static func encode(_ parameters: [(name: String, value: String)]) -> String {
    parameters.map { "\(percentEncode($0.name))=\(percentEncode($0.value))" }
      .joined(separator: "&")
  }

  static func percentEncode(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += String(format: "%%%02X", byte)
      }
    }
    return out
  }
}

/// The server's `copyright` values: `true` (copyrighted), `false` (public domain), `null`.
public enum CopyrightStatus: String, Sendable, Hashable, Codable, CaseIterable {
  case copyrighted = "true"
  case publicDomain = "false"
  case unknown = "null"
}

/// The server's `sort` values; anything but ascending/descending means most popular first.
public enum BookSort: String, Sendable, Hashable, Codable, CaseIterable {
  /// Most downloaded first (the server's default).
  case popular
  /// By Project Gutenberg number, lowest first.
  case ascending
  /// By Project Gutenberg number, highest first.
  case descending
}
