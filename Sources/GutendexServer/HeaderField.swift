/// One header line: a name as sent and its value.
struct HeaderField: Sendable, Hashable {
  var name: String
  var value: String
}
