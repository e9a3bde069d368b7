/// "Did you mean": a query that found few books, with one field spelled as the catalogue
/// spells it, and how many books that finds (the changed query was run: the count is true).
public struct SearchSuggestion: Sendable, Hashable, CustomStringConvertible {
  /// The field a suggestion changes.
  public enum Field: String, Sendable, Hashable {
    case search
    case topic
  }

  /// The most books a query may find and still get proposals.
  public static let threshold = 3

  /// Which field it changes.
  public let field: Field
  /// The field's new value, as a person would type it.
  public let value: String
  /// How many books the changed query finds.
  public let count: Int

  /// A proposal (the catalogue makes them; tests and fronts may too).
  public init(field: Field, value: String, count: Int) {
    self.field = field
    self.value = value
    self.count = count
  }

  /// `les misérables (11 books)`.
  public var description: String {
    "\(value) (\(count) \(count == 1 ? "book" : "books"))"
  }
}
