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
