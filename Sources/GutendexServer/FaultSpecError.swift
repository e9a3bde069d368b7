/// A fault given on the command line (or in a test) that cannot be understood.
public struct FaultSpecError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong, for a person.
  public var description: String

  /// An error saying `description`.
  public init(_ description: String) {
    self.description = description
  }
}
