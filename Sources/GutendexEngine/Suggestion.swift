/// What a query that finds few books probably meant: one parameter changed, and how many books
/// the changed query finds (the real query was run, so the count is true).
public struct Suggestion: Sendable, Equatable, CustomStringConvertible {
  /// The parameter it changes: `search` or `topic`.
  public let parameter: String
  /// The parameter's new value, as a person would type it.
  public let value: String
  /// How many books the query finds with the new value.
  public let count: Int

  /// Makes a suggestion (the engine makes them; tests and fronts may too).
  public init(parameter: String, value: String, count: Int) {
    self.parameter = parameter
    self.value = value
    self.count = count
  }

  /// `les misérables (11 books)`.
  public var description: String {
    "\(value) (\(count) \(count == 1 ? "book" : "books"))"
  }
}
