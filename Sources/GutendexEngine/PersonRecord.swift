/// An author, editor or translator with the server's nullable years.
struct PersonRecord: Sendable, Hashable {
  var name: String
  var birthYear: Int?
  var deathYear: Int?
}
