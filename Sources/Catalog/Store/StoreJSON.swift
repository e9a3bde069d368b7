/// A parsed JSON value that keeps what Foundation's parsers lose: member order, duplicate keys
/// and the exact text of numbers, so books re-serialize without changing their values.
enum StoreJSON: Sendable {
  case null
  case bool(Bool)
  /// The number's literal text, as it appeared (`1`, `-0.5`, `1e3`).
  case number(String)
  case string(String)
  case array([StoreJSON])
  /// Members in document order.
  case object([Member])

  struct Member: Sendable {
    var key: String
    var value: StoreJSON
  }

  /// The value of the first member named `key`, if this is an object that has one.
  subscript(key: String) -> StoreJSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// A short name for the kind of value, for error messages.
  var kind: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
