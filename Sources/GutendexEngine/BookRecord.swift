/// One book as the engine keeps it: every field of the server's JSON, in the server's order.
struct BookRecord: Sendable {
  var id: Int
  var title: String
  var authors: [PersonRecord]
  var summaries: [String]
  var editors: [PersonRecord]
  var translators: [PersonRecord]
  var subjects: [String]
  var bookshelves: [String]
  var languages: [String]
  var copyright: Bool?
  var mediaType: String
  var formats: [FormatEntry]
  var downloadCount: Int
}

/// An author, editor or translator with the server's nullable years.
struct PersonRecord: Sendable, Hashable {
  var name: String
  var birthYear: Int?
  var deathYear: Int?
}

/// One `formats` entry; a snapshot URL holds `BookRecord.idSlot` bytes where the id goes.
struct FormatEntry: Sendable {
  var mime: String
  var url: String
  /// True when `url` is a template whose `idSlot` bytes stand for the book's id.
  var hasIDSlots: Bool
}

extension BookRecord {
  /// The byte a URL template holds in place of the book's id (never in a real URL).
  static let idSlot: UInt8 = 0x01
}
