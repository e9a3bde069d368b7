/// Why ``JSONParser`` stopped: the byte offset of the input where reading failed, and why.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The offset of the byte (or the end of the input) where the problem was found.
  package var offset: Int
  /// What was wrong there, e.g. `expected ',' or '}', found '"'`.
  package var reason: String

  /// An error at `offset`.
  package init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// `reason at byte offset`.
  package var description: String { "\(reason) at byte \(offset)" }
}
